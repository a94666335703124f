/* Asynchronous synchronized reads at the disk, on ext4 and through
   FUSE, in the test guest.  The bug it catches (review B1 of
   ../shared/reviews/kernel-series-2.md, section 1.2): the VFS makes a
   synchronized read durable after ->read_iter returns, but a read that
   ->read_iter queues (-EIOCBQUEUED: aio, io_uring) completes later,
   without the sync.  A series that sends only IOCB_DIRECT reads
   through a synchronous kiocb misses FUSE's FOPEN_DIRECT_IO files with
   async_dio, which since 6.13 queue asynchronous reads without
   IOCB_DIRECT too: such a read then returns data that is not durable,
   with no write and no flush reaching the disk.

   fusecell SERVER DEV N
     Starts the FUSE server SERVER (tests/fuse/passthrough.c: every file
     FOPEN_DIRECT_IO, async_dio where the kernel offers it) in the
     background, serving /mnt/fusecell.d (on the guest's ext4 disk DEV)
     at /fusecell.mnt, and measures N times each of the following,
     printing "fuse CASE WRITES FLUSHES", the writes and flushes that
     reached the disk (/sys/block/DEV/stat) during the read, per read:
       FS-SUB-MODE   for FS ext4 (the file /mnt/fusecell-ext4) and fuse
                     (the file /fusecell.mnt/file, backed by
                     /mnt/fusecell.d/file), SUB aio (io_submit,
                     aio_rw_flags RWF_RSYNC) and uring (IORING_OP_READ,
                     rw_flags RWF_RSYNC), MODE buffered and direct
                     (O_DIRECT): one asynchronous read with RWF_RSYNC of
                     8 KiB that a second process has just written to
                     the backing file without syncing, from a plain
                     descriptor;
       fuse-SUB-rsyncfd
                     the same through FUSE, buffered, for aio and
                     io_uring, but the read is a plain one (no
                     RWF_RSYNC) of a descriptor opened with
                     __O_RSYNC|O_DSYNC (the bit itself, as the open
                     system call takes it);
       ext4-uring-nowait
                     an io_uring read with RWF_RSYNC|RWF_NOWAIT of the
                     ext4 file, dirty: it cannot sync without waiting,
                     so the kernel must refuse it with EAGAIN (review
                     M4), neither wait nor return data unsynced;
       yard-ext4, yard-fuse
                     the yardsticks of the same run: the same dirtying,
                     then fdatasync of the file under test from a plain
                     descriptor.
     A read the kernel refuses prints "fuse CASE refused ERRNO-NAME"
     instead (a kernel without the series refuses RWF_RSYNC with
     EOPNOTSUPP).  Every read checks that it returned the data the
     other process wrote.  Also prints "getfl-fuse 0NNN", the sync bits
     F_GETFL reports for a __O_RSYNC|O_DSYNC descriptor of the FUSE
     file, "cpus N", the processors online, and the server prints "passthrough: async_dio on" (or off)
     when it has mounted.

   Built statically with -D__O_RSYNC= and -DOSYNC_RWF_RSYNC= the values
   of the facts file (no C library's O_RSYNC is involved: the cell
   makes the system calls itself).
   Copyright (C) 2026 The osync-glibc authors.  GPL-2.0-or-later.  */

#define _GNU_SOURCE 1
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/aio_abi.h>

#include "disk-stat.h"
#include "dirty.h"
#include "uring.h"

#ifndef OSYNC_RWF_RSYNC
# error "build with -DOSYNC_RWF_RSYNC= the value of the facts file"
#endif
#ifndef __O_RSYNC
# error "build with -D__O_RSYNC= the value of the facts file"
#endif

#define SIZE OSYNC_DIRTY_SIZE
#define SYNC_BITS (O_DSYNC | O_SYNC | __O_RSYNC)

#define BACKDIR "/mnt/fusecell.d"
#define MNT "/fusecell.mnt"

static const char *dev;
static struct uring ring;
static aio_context_t aio_ctx;

static void
die (const char *what)
{
  printf ("fusecell: %s: %s\n", what, strerror (errno));
  exit (1);
}

enum sub { SUB_AIO, SUB_URING };

/* One asynchronous read of SIZE bytes at 0 of FD into BUF with the
   RWF_* flags RWF through SUB, waited for: the bytes read, or
   -errno.  */
static long
async_read (enum sub sub, int fd, char *buf, unsigned int rwf)
{
  if (sub == SUB_URING)
    return uring_read (&ring, fd, buf, SIZE, 0, rwf);

  struct iocb cb;
  memset (&cb, 0, sizeof cb);
  cb.aio_lio_opcode = IOCB_CMD_PREAD;
  cb.aio_fildes = fd;
  cb.aio_buf = (uintptr_t) buf;
  cb.aio_nbytes = SIZE;
  cb.aio_offset = 0;
  cb.aio_rw_flags = rwf;
  struct iocb *cbs[1] = { &cb };
  if (syscall (SYS_io_submit, aio_ctx, 1L, cbs) != 1)
    return -errno;
  struct io_event ev;
  long r;
  while ((r = syscall (SYS_io_getevents, aio_ctx, 1L, 1L, &ev, NULL)) != 1)
    if (r < 0 && errno != EINTR)
      die ("io_getevents");
  return ev.res;
}

/* Read the range through FD with SUB and RWF, check it holds C, and add
   the disk writes and flushes the read caused to W and F.  0, or the
   positive errno the kernel refused the read with.  */
static int
measure (enum sub sub, int fd, unsigned int rwf, char c, double *w,
         double *f)
{
  static char buf[SIZE] __attribute__ ((aligned (4096)));
  unsigned long w0, f0, w1, f1;

  memset (buf, 0, sizeof buf);
  disk_stat (dev, &w0, &f0);
  long n = async_read (sub, fd, buf, rwf);
  disk_stat (dev, &w1, &f1);
  if (n == -EOPNOTSUPP || n == -EINVAL || n == -EAGAIN)
    return -n;
  if (n != SIZE)
    {
      printf ("fusecell: the %s read returned %ld (%s), want %d\n",
              sub == SUB_AIO ? "aio" : "io_uring", n,
              n < 0 ? strerrorname_np (-n) : "short", SIZE);
      exit (1);
    }
  for (size_t i = 0; i < sizeof buf; i++)
    if (buf[i] != c)
      {
        printf ("fusecell: the read returned byte %d at %zu, want %d\n",
                buf[i], i, c);
        exit (1);
      }
  *w += w1 - w0;
  *f += f1 - f0;
  return 0;
}

/* The yardstick: fdatasync of FD, its writes and flushes added to W
   and F.  */
static void
measure_sync (int fd, double *w, double *f)
{
  unsigned long w0, f0, w1, f1;

  disk_stat (dev, &w0, &f0);
  if (fdatasync (fd) != 0)
    die ("fdatasync");
  disk_stat (dev, &w1, &f1);
  *w += w1 - w0;
  *f += f1 - f0;
}

static int
open_file (const char *path, int flags)
{
  /* The system call itself: __O_RSYNC is the kernel's bit, whatever
     the C library that links this program makes of O_RSYNC.  */
  int fd = syscall (SYS_openat, AT_FDCWD, path, flags);
  if (fd < 0)
    die (path);
  return fd;
}

/* Start SERVER on BACKDIR at MNT and wait until MNT is a mount of its
   own; the server's pid.  Fails if the server exits first.  */
static pid_t
start_server (const char *server)
{
  struct stat root, st;
  if ((mkdir (BACKDIR, 0700) != 0 && errno != EEXIST)
      || (mkdir (MNT, 0700) != 0 && errno != EEXIST))
    die ("mkdir");
  if (stat (MNT, &root) != 0)
    die ("stat " MNT);
  fflush (stdout);
  pid_t pid = fork ();
  if (pid < 0)
    die ("fork");
  if (pid == 0)
    {
      execl (server, server, BACKDIR, MNT, (char *) NULL);
      printf ("fusecell: exec %s: %s\n", server, strerror (errno));
      _exit (127);
    }
  for (;;)
    {
      int status;
      if (waitpid (pid, &status, WNOHANG) == pid)
        {
          printf ("fusecell: the FUSE server exited with status 0x%x "
                  "before it mounted %s (no /dev/fuse? no FUSE in the "
                  "kernel?)\n", status, MNT);
          exit (1);
        }
      if (stat (MNT, &st) == 0 && st.st_dev != root.st_dev)
        return pid;
      nanosleep (&(struct timespec) { .tv_nsec = 10 * 1000 * 1000 }, NULL);
    }
}

static void
stop_server (pid_t pid)
{
  int status;
  if (umount2 (MNT, 0) != 0)
    die ("umount " MNT);
  if (waitpid (pid, &status, 0) != pid)
    die ("waitpid");
  if (!WIFEXITED (status) || WEXITSTATUS (status) != 0)
    {
      printf ("fusecell: the FUSE server ended with status 0x%x\n", status);
      exit (1);
    }
}

int
main (int argc, char **argv)
{
  if (argc != 4)
    {
      printf ("usage: fusecell SERVER DEV N\n");
      return 2;
    }
  dev = argv[2];
  int n = atoi (argv[3]);
  if (n < 1)
    {
      printf ("fusecell: N must be at least 1\n");
      return 2;
    }
  if (uring_init (&ring, 4, 0) != 0)
    die ("io_uring_setup");
  if (syscall (SYS_io_setup, 4, &aio_ctx) != 0)
    die ("io_setup");
  printf ("cpus %ld\n", sysconf (_SC_NPROCESSORS_ONLN));
  pid_t server = start_server (argv[1]);

  /* The file under test and the file the writer dirties, per file
     system.  */
  static const struct { const char *name, *path, *backing; } fss[] =
    {
      { "ext4", "/mnt/fusecell-ext4", "/mnt/fusecell-ext4" },
      { "fuse", MNT "/file", BACKDIR "/file" },
    };
  for (size_t i = 0; i < 2; i++)
    osync_make_file (fss[i].backing);

  int fd = open_file (fss[1].path, O_RDONLY | __O_RSYNC | O_DSYNC);
  printf ("getfl-fuse 0%o\n", fcntl (fd, F_GETFL) & SYNC_BITS);
  close (fd);

  /* The cases: file system, submitter, O_DIRECT, an O_RSYNC
     descriptor (a plain read) rather than RWF_RSYNC.  */
  struct fcase
  {
    int fs;
    enum sub sub;
    int direct, rsyncfd, nowait;
    char name[40];
    double w, f;
    int refused;
  } cases[2 * 2 * 2 + 3];
  size_t ncases = 0;
  for (int fs = 0; fs < 2; fs++)
    for (int sub = 0; sub < 2; sub++)
      for (int direct = 0; direct < 2; direct++)
        {
          struct fcase *k = &cases[ncases++];
          memset (k, 0, sizeof *k);
          k->fs = fs;
          k->sub = sub;
          k->direct = direct;
          snprintf (k->name, sizeof k->name, "%s-%s-%s", fss[fs].name,
                    sub == SUB_AIO ? "aio" : "uring",
                    direct ? "direct" : "buffered");
        }
  for (int sub = 0; sub < 2; sub++)
    {
      struct fcase *k = &cases[ncases++];
      memset (k, 0, sizeof *k);
      k->fs = 1;
      k->sub = sub;
      k->rsyncfd = 1;
      snprintf (k->name, sizeof k->name, "fuse-%s-rsyncfd",
                sub == SUB_AIO ? "aio" : "uring");
    }
  {
    struct fcase *k = &cases[ncases++];
    memset (k, 0, sizeof *k);
    k->sub = SUB_URING;
    k->nowait = 1;
    snprintf (k->name, sizeof k->name, "ext4-uring-nowait");
  }
  double yw[2] = { 0 }, yf[2] = { 0 };

  char c = 'b';
  for (int round = 0; round < n; round++)
    {
      for (size_t i = 0; i < ncases; i++)
        {
          struct fcase *k = &cases[i];
          if (k->refused)
            continue;
          osync_dirty (fss[k->fs].backing, c, 0);
          fd = open_file (fss[k->fs].path,
                          O_RDONLY | (k->direct ? O_DIRECT : 0)
                          | (k->rsyncfd ? __O_RSYNC | O_DSYNC : 0));
          k->refused = measure (k->sub, fd,
                                (k->rsyncfd ? 0 : OSYNC_RWF_RSYNC)
                                | (k->nowait ? RWF_NOWAIT : 0),
                                c, &k->w, &k->f);
          close (fd);
          c = c == 'z' ? 'b' : c + 1;
          osync_settle (fss[k->fs].backing);
        }
      for (int fs = 0; fs < 2; fs++)
        {
          osync_dirty (fss[fs].backing, c, 0);
          fd = open_file (fss[fs].path, O_RDONLY);
          measure_sync (fd, &yw[fs], &yf[fs]);
          close (fd);
          c = c == 'z' ? 'b' : c + 1;
          osync_settle (fss[fs].backing);
        }
    }
  for (size_t i = 0; i < ncases; i++)
    if (cases[i].refused)
      printf ("fuse %s refused %s\n", cases[i].name,
              strerrorname_np (cases[i].refused));
    else
      printf ("fuse %s %.2f %.2f\n", cases[i].name, cases[i].w / n,
              cases[i].f / n);
  for (int fs = 0; fs < 2; fs++)
    printf ("fuse yard-%s %.2f %.2f\n", fss[fs].name, yw[fs] / n, yf[fs] / n);

  unlink (fss[0].path);
  unlink (fss[1].backing);
  stop_server (server);
  return 0;
}
