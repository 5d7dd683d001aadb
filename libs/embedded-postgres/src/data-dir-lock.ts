import { createHash } from 'node:crypto';
import { closeSync, constants, ftruncateSync, openSync, readFileSync, realpathSync, writeSync } from 'node:fs';
import { createConnection, createServer, type Server } from 'node:net';
import { join } from 'node:path';

export type DataDirLock = { readonly release: () => Promise<void> } | { readonly heldBy: number | undefined };

/** How long a process that finds DATA_DIR held waits for the holder to say its pid (for the message only). */
const HOLDER_ANSWER_MS = 1000;
/** open(2) flag of macOS and the BSDs (not in fs.constants): take flock(LOCK_EX) with the opening; with O_NONBLOCK, fail rather than wait. */
const O_EXLOCK = 0x20;

/**
 * Holds DATA_DIR for this process with a lock that the operating system takes atomically and
 * releases when the process ends, however it ends (kill -9 included), so there is no stale lock to
 * take over:
 * - Linux: a Unix socket bound in the abstract namespace, named after DATA_DIR's real path (no
 *   file). Abstract names belong to a network namespace: containers with their own network that
 *   mount the same DATA_DIR do not see each other's lock.
 * - Windows: a named pipe of the same name (its first instance is exclusive).
 * - macOS and the BSDs: flock on DATA_DIR/faultline.lock, taken as the file is opened (O_EXLOCK).
 * The holder answers a connection to its socket with its pid, which names it in the refusal.
 */
export async function lockDataDir(dataDir: string): Promise<DataDirLock> {
  const name = createHash('sha256').update(realpathSync(dataDir)).digest('hex');
  if (process.platform === 'linux') return holdSocket(`\0faultline:${name}`);
  if (process.platform === 'win32') return holdSocket(`\\\\.\\pipe\\faultline-${name}`);
  return holdLockFile(join(dataDir, 'faultline.lock'));
}

async function holdSocket(address: string): Promise<DataDirLock> {
  const server = createServer((socket) => socket.end(String(process.pid)));
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ path: address }, resolve);
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    return { heldBy: await askHolder(address) };
  }
  // The lock must not keep the process alive; sockets are not inherited by the server's processes.
  server.unref();
  return { release: () => close(server) };
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

function askHolder(address: string): Promise<number | undefined> {
  return new Promise((resolve) => {
    let answer = '';
    const socket = createConnection({ path: address });
    socket.setTimeout(HOLDER_ANSWER_MS, () => socket.destroy());
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(Number(answer) || undefined));
  });
}

function holdLockFile(path: string): DataDirLock {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDWR | constants.O_CREAT | O_EXLOCK | constants.O_NONBLOCK, 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EAGAIN' && (error as NodeJS.ErrnoException).code !== 'EWOULDBLOCK') throw error;
    let pid: number | undefined;
    try {
      pid = Number(readFileSync(path, 'utf8')) || undefined;
    } catch {
      pid = undefined;
    }
    return { heldBy: pid };
  }
  ftruncateSync(fd, 0);
  writeSync(fd, String(process.pid), 0);
  // The file stays: removing a locked file would let a later process lock a new file while another holds the old one.
  return { release: async () => closeSync(fd) };
}
