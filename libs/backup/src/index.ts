export { BackupFileError, type BackupHeader, type BackupManifest, readBackupFile } from './backup-file';
export { checkRestorable, restoreBackup, RestoreRefusedError, type RestoreStep, type RestoreSummary, verifyBackup } from './restore-backup';
export { type BackupProgress, type BackupSummary, takeBackup } from './take-backup';
