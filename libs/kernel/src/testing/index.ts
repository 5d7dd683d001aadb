/** Test support for specs; never imported by production code (see .dependency-cruiser.cjs). */
export { DeciderSpecification, type Decision, type SpecifiedDecider } from './decider-specification';
