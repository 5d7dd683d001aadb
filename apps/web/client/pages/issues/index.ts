import './issues.css';
export { IssuesPage } from './stream';
export { IssuePage } from './issue-page';
