import { GroupCommit } from './group-commit';

describe('GroupCommit', () => {
  it('writes what arrives during a write together in the next one, and tells each caller its write', async () => {
    const writes: number[][] = [];
    let release: () => void = () => undefined;
    const commits = new GroupCommit<number>(
      async (items) => {
        writes.push(items);
        if (items.includes(99)) throw new Error('refused');
        if (writes.length === 1) await new Promise<void>((resolve) => (release = resolve));
      },
      { concurrentWrites: 1, maxItemsPerWrite: 4 },
    );
    const first = commits.add([1]);
    const later = [commits.add([2, 3]), commits.add([4]), commits.add([5, 6])];
    expect(writes).toEqual([[1]]);
    release();
    await Promise.all([first, ...later]);
    // At most four items a write; a caller's items are never split.
    expect(writes).toEqual([[1], [2, 3, 4], [5, 6]]);
    await expect(commits.add([99])).rejects.toThrow('refused');
    await expect(commits.add([])).resolves.toBeUndefined();
    expect(writes).toHaveLength(4);
  });
});
