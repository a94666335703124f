/* Synchronized reads on every kind of file, in the test guest: the
   file-system rows of the matrix (tests/osync.matrix/filesystems.exp).
   Built against the patched headers (O_RSYNC is __O_RSYNC) and run
   under the patched glibc, which passes O_RSYNC to a kernel that has
   it and drops it elsewhere; RWF_RSYNC (OSYNC_RWF_RSYNC, from the
   project's facts) goes to the kernel as it is.

   fscell ROW FILE DEV ROUNDS
     FILE is the file of the row: a regular file (created), a block
     device or a file of /proc (used as it is).  Prints
       open FLAGS ok|ERRNO-NAME   the open of FILE with O_SYNC, with
                                  O_RSYNC|O_DSYNC, with O_RSYNC|O_SYNC
       getfl 0NNN                 the sync bits F_GETFL reports for the
                                  O_RSYNC|O_DSYNC descriptor
       call CALL ok|ERRNO-NAME    whether a synchronized read through
                                  CALL returns the right data: read,
                                  rwf (preadv2 with RWF_RSYNC), uring
                                  (an io_uring read of the O_RSYNC
                                  descriptor), uring-rwf (with RWF_RSYNC
                                  in rw_flags)
     and, with DEV the block device under FILE (/sys/block/DEV/stat;
     "-" for none), for each case below "fs CASE WRITES FLUSHES", the
     writes and flushes that reached DEV during it, the least of ROUNDS
     rounds (something else in the guest can only add I/O), or "fs
     CASE ERRNO-NAME" if it failed.  Before each, another process
     overwrites the 8 KiB read without syncing (CASES with "w": and
     writes it back with sync_file_range, no flush; with "d": through
     O_DIRECT), after a settle (fsync, sync, then an fdatasync, which
     ends in a flush after everything written):
       plain            a plain pread
       rsync-dsync      pread of an O_RSYNC|O_DSYNC descriptor
       rsync-sync       the same with O_RSYNC|O_SYNC
       written-back     w, then as rsync-dsync
       direct           d, then pread of O_RSYNC|O_DSYNC|O_DIRECT
       splice           splice of an O_RSYNC|O_DSYNC descriptor
       rwf              preadv2 with RWF_RSYNC of a plain descriptor
       uring            io_uring read of an O_RSYNC|O_DSYNC descriptor
       uring-rwf        io_uring read with RWF_RSYNC, plain descriptor
       uring-direct     d, then io_uring read of O_RSYNC|O_DSYNC|O_DIRECT
                        (the asynchronous direct read, synced at its
                        completion or issued synchronously)
       yard-fdatasync, yard-fsync, yard-written-back, yard-direct
                        the yardsticks: fdatasync (fsync) of a plain
                        descriptor after the same dirtying, w or d.
   fscell overlay BASE MNT
     Mount an overlay on MNT whose lower, upper and work directories are
     made under BASE (on ext4), for the overlay row.
   fscell error DISK
     The writeback-error test: a device-mapper device over the block
     device DISK; a buffered overwrite, then the table switched to the
     "error" target so that writeback fails; an O_RSYNC|O_DSYNC
     read() and splice() of the range; the table switched back; then
     fsync() of the descriptors.  Prints "error STEP RESULT" lines:
     read (ok or the errno name), pos (the file offset after it,
     relative to where it started), splice and pipe (the bytes the pipe
     holds after it), again (a second read), fsync and fsync-again (of
     the O_RSYNC descriptor), other and writer (of a descriptor opened
     before the error, and of the one that wrote).
   fscell errorfs DISK FSTYPE
     The same on the file system of type FSTYPE that DISK holds (made on
     the host), mounted from a device-mapper device over DISK, whose
     table fails the I/O of the file's second 8 KiB only (FIEMAP): an
     overwrite of them, its writeback failed (sync_file_range, then
     syncfs, which leaves the file's error unseen); O_RSYNC|O_DSYNC
     reads by a descriptor opened before the error (read-before) and by
     one opened after that read (read-late), a plain read (plain); the
     table switched back, then fsync() of each descriptor (fsync-writer,
     -before, -after: opened after the failed writeback, -late, -rsync-
     before, -rsync-late) and again of the writer (fsync-again); an
     O_RSYNC read after all that (read-synced), and one after a mount
     anew (read-remounted).  Prints "errorfs syncfs ok|ERRNO-NAME",
     "errorfs fsync-X ok|ERRNO-NAME" and "errorfs read-X ok C|ERRNO-
     NAME" (C: the byte read, 'd' the durable data, 'e' the overwrite).

   Copyright (C) 2026 The osync-glibc authors.  GPL-2.0-or-later.  */

#define _GNU_SOURCE 1
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/fiemap.h>
#include <linux/fs.h>

#include "disk-stat.h"
#include "dirty.h"
#include "uring.h"
#include "dmlog.h"

#ifndef OSYNC_RWF_RSYNC
# error "build with -DOSYNC_RWF_RSYNC= the value of the facts file"
#endif
#define RWF_RSYNC_BIT OSYNC_RWF_RSYNC

#define SIZE OSYNC_DIRTY_SIZE
#define FILE_SIZE (16 * SIZE)
#define SYNC_BITS (O_DSYNC | O_SYNC | O_RSYNC)

static const char *row, *file, *dev;
static int is_bdev, is_proc;
static char buf[SIZE] __attribute__ ((aligned (4096)));

static void
die (const char *what)
{
  printf ("fscell: %s: %s\n", what, strerror (errno));
  exit (1);
}

static void
check (char c, const char *what)
{
  for (size_t i = 0; i < SIZE; i++)
    if (buf[i] != c)
      {
        printf ("fscell: %s returned byte %d at %zu, want %d\n", what,
                buf[i], i, c);
        exit (1);
      }
}

enum call
{
  C_PREAD, C_SPLICE, C_RWF, C_URING, C_URING_RWF, C_FDATASYNC, C_FSYNC
};

/* One read (or yardstick sync) of the range through FD with CALL;
   0, or the errno of the failure.  The data is checked against C,
   unless C is 0.  */
static int
one (int fd, enum call call, char c)
{
  static struct uring ring;
  static int ring_ready;
  struct iovec iov = { buf, SIZE };
  int pipefd[2];
  ssize_t n = -1;
  int r;

  memset (buf, 0, SIZE);
  switch (call)
    {
    case C_PREAD:
      n = pread (fd, buf, SIZE, 0);
      break;
    case C_RWF:
      n = preadv2 (fd, &iov, 1, 0, RWF_RSYNC_BIT);
      break;
    case C_SPLICE:
      {
        loff_t off = 0;
        if (pipe (pipefd) != 0 || fcntl (pipefd[0], F_SETPIPE_SZ, SIZE) < 0)
          die ("pipe");
        n = splice (fd, &off, pipefd[1], NULL, SIZE, 0);
        int e = errno;
        if (n == SIZE && read (pipefd[0], buf, SIZE) != SIZE)
          die ("read from the pipe");
        close (pipefd[0]);
        close (pipefd[1]);
        errno = e;
      }
      break;
    case C_URING:
    case C_URING_RWF:
      if (!ring_ready && uring_init (&ring, 4, 0) != 0)
        die ("io_uring_setup");
      ring_ready = 1;
      r = uring_read (&ring, fd, buf, SIZE, 0,
                      call == C_URING_RWF ? RWF_RSYNC_BIT : 0);
      n = r;
      if (r < 0)
        errno = -r;
      break;
    case C_FDATASYNC:
      return fdatasync (fd) == 0 ? 0 : errno;
    case C_FSYNC:
      return fsync (fd) == 0 ? 0 : errno;
    }
  if (n < 0)
    return errno;
  /* A file of /proc (C 0): whatever it holds, something is read.  */
  if (c == 0 ? n == 0 : n != SIZE)
    {
      printf ("fscell: %s: a read of %zd bytes, want %d\n", row, n, SIZE);
      exit (1);
    }
  if (c != 0)
    check (c, row);
  return 0;
}

struct kase
{
  const char *name;
  char how;
  int flags;
  enum call call;
};

static const struct kase cases[] =
  {
    { "plain", 0, 0, C_PREAD },
    { "rsync-dsync", 0, O_RSYNC | O_DSYNC, C_PREAD },
    { "rsync-sync", 0, O_RSYNC | O_SYNC, C_PREAD },
    { "written-back", 'w', O_RSYNC | O_DSYNC, C_PREAD },
    { "direct", 'd', O_RSYNC | O_DSYNC | O_DIRECT, C_PREAD },
    { "splice", 0, O_RSYNC | O_DSYNC, C_SPLICE },
    { "rwf", 0, 0, C_RWF },
    { "uring", 0, O_RSYNC | O_DSYNC, C_URING },
    { "uring-rwf", 0, 0, C_URING_RWF },
    { "uring-direct", 'd', O_RSYNC | O_DSYNC | O_DIRECT, C_URING },
    { "yard-fdatasync", 0, 0, C_FDATASYNC },
    { "yard-fsync", 0, 0, C_FSYNC },
    { "yard-written-back", 'w', 0, C_FDATASYNC },
    { "yard-direct", 'd', 0, C_FDATASYNC },
  };

static const char *
errname (int e)
{
  const char *s = strerrorname_np (e);
  return s != NULL ? s : "EUNKNOWN";
}

/* The opens, F_GETFL and one synchronized read through each call,
   without disk counts.  */
static void
basics (void)
{
  static const struct { const char *name; int flags; } opens[] =
    {
      { "O_SYNC", O_SYNC }, { "O_RSYNC|O_DSYNC", O_RSYNC | O_DSYNC },
      { "O_RSYNC|O_SYNC", O_RSYNC | O_SYNC },
    };
  for (size_t i = 0; i < sizeof opens / sizeof opens[0]; i++)
    {
      int fd = open (file, O_RDONLY | opens[i].flags);
      printf ("open %s %s\n", opens[i].name, fd >= 0 ? "ok" : errname (errno));
      if (fd >= 0)
        {
          if (opens[i].flags == (O_RSYNC | O_DSYNC))
            printf ("getfl 0%o\n", fcntl (fd, F_GETFL) & SYNC_BITS);
          close (fd);
        }
    }
  static const struct { const char *name; int flags; enum call call; } calls[] =
    {
      { "read", O_RSYNC | O_DSYNC, C_PREAD }, { "rwf", 0, C_RWF },
      { "uring", O_RSYNC | O_DSYNC, C_URING }, { "uring-rwf", 0, C_URING_RWF },
    };
  for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++)
    {
      char c = is_proc ? 0 : 'a' + i;
      if (!is_proc)
        osync_dirty (file, c, 0);
      int fd = open (file, O_RDONLY | calls[i].flags);
      if (fd < 0)
        die ("open");
      int e = one (fd, calls[i].call, c);
      printf ("call %s %s\n", calls[i].name, e == 0 ? "ok" : errname (e));
      close (fd);
    }
}

static void
cells (int rounds)
{
  char c = 'a';
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
    {
      const struct kase *ks = &cases[k];
      unsigned long wmin = -1, fmin = -1;
      int err = 0;
      for (int r = 0; r < rounds && err == 0; r++)
        {
          c = c == 'z' ? 'a' : c + 1;
          osync_settle (file);
          osync_dirty (file, c, ks->how);
          int fd = open (file, (ks->call == C_FDATASYNC || ks->call == C_FSYNC
                                ? O_RDWR : O_RDONLY) | ks->flags);
          if (fd < 0)
            die ("open");
          unsigned long w0, f0, w1, f1;
          disk_stat (dev, &w0, &f0);
          err = one (fd, ks->call, c);
          disk_stat (dev, &w1, &f1);
          close (fd);
          if (w1 - w0 < wmin)
            wmin = w1 - w0;
          if (f1 - f0 < fmin)
            fmin = f1 - f0;
        }
      if (err != 0)
        printf ("fs %s %s\n", ks->name, errname (err));
      else
        printf ("fs %s %lu %lu\n", ks->name, wmin, fmin);
    }
}

/* device-mapper: load into NAME (created first if CREATE, and its node
   then FILE) a table that maps the SECTORS of DISK linearly, but for
   the HOLE_LEN sectors from HOLE, which fail every I/O (the "error"
   target): HOLE_LEN 0 maps it all, HOLE 0 and HOLE_LEN SECTORS fails it
   all.  */
static void
dm_table (const char *name, const char *disk, uint64_t sectors,
          uint64_t hole, uint64_t hole_len, int create)
{
  static uint64_t dmbuf[DMLOG_BUF / 8];
  struct dm_ioctl *io;
  if (create)
    {
      io = dmlog_header (dmbuf, name);
      if (dmlog_ioctl (DM_DEV_CREATE, io) != 0)
        die ("DM_DEV_CREATE (is device-mapper there?)");
    }
  io = dmlog_header (dmbuf, name);
  const uint64_t from[3] = { 0, hole, hole + hole_len };
  const uint64_t to[3] = { hole, hole + hole_len, sectors };
  char *p = (char *) dmbuf + io->data_start;
  for (int i = 0; i < 3; i++)
    {
      if (to[i] == from[i])
        continue;
      struct dm_target_spec *spec = (void *) p;
      spec->sector_start = from[i];
      spec->length = to[i] - from[i];
      snprintf (spec->target_type, sizeof spec->target_type, "%s",
                i == 1 ? "error" : "linear");
      char *params = (char *) (spec + 1);
      if (i != 1)
        snprintf (params, 256, "%s %llu", disk,
                  (unsigned long long) from[i]);
      /* The next target starts 8-aligned after this one's parameters.  */
      spec->next = (sizeof *spec + strlen (params) + 1 + 7) & ~7u;
      p += spec->next;
      io->target_count++;
    }
  if (dmlog_ioctl (DM_TABLE_LOAD, io) != 0)
    die ("DM_TABLE_LOAD");
  if (!create)
    {
      /* Suspend, so that the resume below swaps the tables; without
         freezing the device, which would write its dirty pages back
         first.  */
      io = dmlog_header (dmbuf, name);
      io->flags = DM_SUSPEND_FLAG | DM_SKIP_LOCKFS_FLAG;
      if (dmlog_ioctl (DM_DEV_SUSPEND, io) != 0)
        die ("DM_DEV_SUSPEND (suspend)");
    }
  io = dmlog_header (dmbuf, name);
  if (dmlog_ioctl (DM_DEV_SUSPEND, io) != 0)
    die ("DM_DEV_SUSPEND (resume)");
  if (create)
    {
      static char node[64];
      unsigned int mi = minor (io->dev), ma = major (io->dev);
      snprintf (node, sizeof node, "/dev/dm-%u", mi);
      struct stat st;
      if (stat (node, &st) != 0 && mknod (node, S_IFBLK | 0600, makedev (ma, mi)) != 0)
        die (node);
      file = node;
    }
}

static void
dm_remove (const char *name)
{
  static uint64_t dmbuf[DMLOG_BUF / 8];
  struct dm_ioctl *io = dmlog_header (dmbuf, name);
  if (dmlog_ioctl (DM_DEV_REMOVE, io) != 0)
    die ("DM_DEV_REMOVE");
}

static void
result (const char *step, ssize_t r, int e)
{
  printf ("error %s %s\n", step, r >= 0 ? "ok" : errname (e));
}

static int
error_test (const char *disk)
{
  const char *name = "fscell-error";
  uint64_t bytes;
  int fd = open (disk, O_RDONLY);
  if (fd < 0 || ioctl (fd, BLKGETSIZE64, &bytes) != 0)
    die (disk);
  close (fd);
  dm_table (name, disk, bytes / 512, 0, 0, 1);

  /* Durable data, then a descriptor open before the error, and a
     buffered overwrite of the second 8 KiB.  */
  int writer = open (file, O_RDWR);
  if (writer < 0)
    die ("open the dm device");
  memset (buf, 'd', SIZE);
  if (pwrite (writer, buf, SIZE, 0) != SIZE || pwrite (writer, buf, SIZE, SIZE) != SIZE
      || fsync (writer) != 0)
    die ("the durable data");
  int other = open (file, O_RDONLY);
  int rfd = open (file, O_RDONLY | O_RSYNC | O_DSYNC);
  if (other < 0 || rfd < 0)
    die ("open");
  memset (buf, 'e', SIZE);
  if (pwrite (writer, buf, SIZE, SIZE) != SIZE)
    die ("the overwrite");

  /* Writeback fails from now on.  */
  dm_table (name, disk, bytes / 512, 0, bytes / 512, 0);
  if (lseek (rfd, SIZE, SEEK_SET) != SIZE)
    die ("lseek");
  ssize_t r = read (rfd, buf, SIZE);
  result ("read", r, errno);
  printf ("error pos %lld\n", (long long) lseek (rfd, 0, SEEK_CUR) - SIZE);
  int pipefd[2];
  if (pipe (pipefd) != 0 || fcntl (pipefd[0], F_SETPIPE_SZ, SIZE) < 0)
    die ("pipe");
  loff_t off = SIZE;
  r = splice (rfd, &off, pipefd[1], NULL, SIZE, 0);
  result ("splice", r, errno);
  int inpipe = -1;
  if (ioctl (pipefd[0], FIONREAD, &inpipe) != 0)
    die ("FIONREAD");
  printf ("error pipe %d\n", inpipe);
  close (pipefd[0]);
  close (pipefd[1]);
  r = pread (rfd, buf, SIZE, SIZE);
  result ("again", r, errno);

  /* Writeback works again: only the error cursors can still fail a
     sync.  */
  dm_table (name, disk, bytes / 512, 0, 0, 0);
  result ("fsync", fsync (rfd), errno);
  result ("fsync-again", fsync (rfd), errno);
  result ("other", fsync (other), errno);
  result ("writer", fsync (writer), errno);
  close (rfd);
  close (other);
  close (writer);
  dm_remove (name);
  return 0;
}

/* The 512-byte sector of the device under FD where the file's byte OFF
   is, found with FIEMAP: the SIZE bytes from OFF must lie in one
   written extent.  */
static uint64_t
sector_of (int fd, off_t off)
{
  struct
  {
    struct fiemap fm;
    struct fiemap_extent fe[8];
  } m;
  memset (&m, 0, sizeof m);
  m.fm.fm_start = off;
  m.fm.fm_length = SIZE;
  m.fm.fm_flags = FIEMAP_FLAG_SYNC;
  m.fm.fm_extent_count = 8;
  if (ioctl (fd, FS_IOC_FIEMAP, &m.fm) != 0)
    die ("FS_IOC_FIEMAP");
  const uint32_t odd = FIEMAP_EXTENT_UNKNOWN | FIEMAP_EXTENT_DELALLOC
    | FIEMAP_EXTENT_UNWRITTEN | FIEMAP_EXTENT_ENCODED
    | FIEMAP_EXTENT_NOT_ALIGNED | FIEMAP_EXTENT_DATA_INLINE;
  for (uint32_t i = 0; i < m.fm.fm_mapped_extents; i++)
    {
      const struct fiemap_extent *e = &m.fe[i];
      if (e->fe_logical <= (uint64_t) off
          && (uint64_t) off + SIZE <= e->fe_logical + e->fe_length
          && (e->fe_flags & odd) == 0)
        return (e->fe_physical + (off - e->fe_logical)) / 512;
    }
  printf ("fscell: the %d bytes at %lld are not in one written extent\n",
          SIZE, (long long) off);
  exit (1);
}

/* A read of the file's second SIZE bytes through FD: "errorfs STEP
   ERRNO-NAME", or "errorfs STEP ok C" with C the byte every one of
   them holds ("mixed" if they differ).  */
static void
read_step (int fd, const char *step)
{
  memset (buf, 0, SIZE);
  ssize_t r = pread (fd, buf, SIZE, SIZE);
  if (r < 0)
    {
      printf ("errorfs %s %s\n", step, errname (errno));
      return;
    }
  int same = r == SIZE;
  for (ssize_t i = 1; same && i < r; i++)
    same = buf[i] == buf[0];
  if (same)
    printf ("errorfs %s ok %c\n", step, buf[0]);
  else
    printf ("errorfs %s ok mixed\n", step);
}

static void
sync_step (int fd, const char *step)
{
  int r = fsync (fd);
  printf ("errorfs %s %s\n", step, r == 0 ? "ok" : errname (errno));
}

/* Set the kernel's console log level (the first number of
   /proc/sys/kernel/printk) to LEVEL; return the one it had.  */
static int
console_level (const char *level)
{
  char cur[64] = "";
  int fd = open ("/proc/sys/kernel/printk", O_RDWR);
  if (fd < 0 || read (fd, cur, sizeof cur - 1) <= 0
      || pwrite (fd, level, strlen (level), 0) != (ssize_t) strlen (level))
    die ("/proc/sys/kernel/printk");
  close (fd);
  return atoi (cur);
}

static int
errorfs_test (const char *disk, const char *type)
{
  const char *name = "fscell-errorfs", *mnt = "/errfs", *path = "/errfs/f";
  uint64_t bytes;
  int fd = open (disk, O_RDONLY);
  if (fd < 0 || ioctl (fd, BLKGETSIZE64, &bytes) != 0)
    die (disk);
  close (fd);
  const uint64_t sectors = bytes / 512;
  /* The kernel's reports of the failed writes would go to the console
     amid this program's lines: only emergencies until the end, then
     the console level as it was.  */
  const int level = console_level ("1");
  dm_table (name, disk, sectors, 0, 0, 1);
  if (mkdir (mnt, 0755) != 0 && errno != EEXIST)
    die (mnt);
  if (mount (file, mnt, type, 0, NULL) != 0)
    die ("mount the device-mapper device");

  /* Durable data, and descriptors opened before the error.  */
  int writer = open (path, O_RDWR | O_CREAT | O_TRUNC, 0600);
  memset (buf, 'd', SIZE);
  if (writer < 0 || pwrite (writer, buf, SIZE, 0) != SIZE
      || pwrite (writer, buf, SIZE, SIZE) != SIZE || fsync (writer) != 0)
    die ("the durable data");
  const uint64_t hole = sector_of (writer, SIZE);
  int before = open (path, O_RDONLY);
  int before_rs = open (path, O_RDONLY | O_RSYNC | O_DSYNC);
  if (before < 0 || before_rs < 0)
    die ("open before the error");

  /* A buffered overwrite of the second SIZE bytes whose writeback
     fails, on every kernel alike: sync_file_range starts it, and
     syncfs waits for it without marking the error seen in the file
     (only in the file system, whose error syncfs reports).  The file
     system's own writes (journal, log, inodes) still work.  */
  memset (buf, 'e', SIZE);
  if (pwrite (writer, buf, SIZE, SIZE) != SIZE)
    die ("the overwrite");
  dm_table (name, disk, sectors, hole, SIZE / 512, 0);
  if (sync_file_range (writer, SIZE, SIZE, SYNC_FILE_RANGE_WRITE) != 0)
    die ("sync_file_range");
  int r = syncfs (writer);
  printf ("errorfs syncfs %s\n", r == 0 ? "ok" : errname (errno));
  int after = open (path, O_RDONLY);
  if (after < 0)
    die ("open after the error");

  /* The page cache holds the overwrite, which is not on the disk.  */
  read_step (before_rs, "read-before");
  int late = open (path, O_RDONLY);
  int late_rs = open (path, O_RDONLY | O_RSYNC | O_DSYNC);
  if (late < 0 || late_rs < 0)
    die ("open after the read");
  read_step (late_rs, "read-late");
  read_step (late, "plain");

  /* Writes work again: what fsync() reports now comes from each
     descriptor's error cursor alone.  */
  dm_table (name, disk, sectors, 0, 0, 0);
  sync_step (writer, "fsync-writer");
  sync_step (before, "fsync-before");
  sync_step (after, "fsync-after");
  sync_step (late, "fsync-late");
  sync_step (before_rs, "fsync-rsync-before");
  sync_step (late_rs, "fsync-rsync-late");
  sync_step (writer, "fsync-again");
  read_step (before_rs, "read-synced");
  close (writer);
  close (before);
  close (after);
  close (late);
  close (before_rs);
  close (late_rs);

  /* Out of the cache, the file holds what the disk holds.  */
  if (umount (mnt) != 0 || mount (file, mnt, type, 0, NULL) != 0)
    die ("mount the file system again");
  fd = open (path, O_RDONLY | O_RSYNC | O_DSYNC);
  if (fd < 0)
    die ("open after the mount");
  read_step (fd, "read-remounted");
  close (fd);
  if (umount (mnt) != 0)
    die ("umount");
  dm_remove (name);
  char was[16];
  snprintf (was, sizeof was, "%d", level);
  console_level (was);
  return 0;
}

static int
overlay (const char *base, const char *mnt)
{
  static const char *const dirs[] = { "", "/lower", "/upper", "/work" };
  char path[4096], opts[4096 * 3];
  for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++)
    {
      snprintf (path, sizeof path, "%s%s", base, dirs[i]);
      if (mkdir (path, 0755) != 0 && errno != EEXIST)
        die (path);
    }
  if (mkdir (mnt, 0755) != 0 && errno != EEXIST)
    die (mnt);
  snprintf (opts, sizeof opts, "lowerdir=%s/lower,upperdir=%s/upper,workdir=%s/work",
            base, base, base);
  if (mount ("overlay", mnt, "overlay", 0, opts) != 0)
    die ("mount overlay (is overlayfs there?)");
  printf ("overlay ok %s\n", mnt);
  return 0;
}

int
main (int argc, char **argv)
{
  if (argc == 3 && strcmp (argv[1], "error") == 0)
    return error_test (argv[2]);
  if (argc == 4 && strcmp (argv[1], "errorfs") == 0)
    return errorfs_test (argv[2], argv[3]);
  if (argc == 4 && strcmp (argv[1], "overlay") == 0)
    return overlay (argv[2], argv[3]);
  if (argc != 5)
    {
      printf ("usage: fscell ROW FILE DEV ROUNDS | fscell overlay BASE MNT"
              " | fscell error DISK | fscell errorfs DISK FSTYPE\n");
      return 2;
    }
  row = argv[1];
  file = argv[2];
  dev = argv[3];
  int rounds = atoi (argv[4]);
  struct stat st;
  is_proc = strncmp (file, "/proc/", 6) == 0;
  if (!is_proc && stat (file, &st) == 0 && S_ISBLK (st.st_mode))
    is_bdev = 1;
  if (!is_proc && !is_bdev)
    {
      int fd = open (file, O_RDWR | O_CREAT | O_TRUNC, 0600);
      memset (buf, 'a', SIZE);
      for (int i = 0; i < FILE_SIZE / SIZE; i++)
        if (fd < 0 || write (fd, buf, SIZE) != SIZE)
          die ("write");
      close (fd);
    }
  if (!is_proc)
    osync_settle (file);
  basics ();
  if (strcmp (dev, "-") != 0)
    cells (rounds);
  if (!is_proc && !is_bdev)
    unlink (file);
  return 0;
}
