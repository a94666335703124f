/* A small passthrough FUSE server for the test guest (fusecell.c):
   it serves the directory BACKING at MOUNTPOINT, opens every file with
   FOPEN_DIRECT_IO (fi->direct_io), asks for asynchronous direct I/O
   (FUSE_CAP_ASYNC_DIO) where the kernel offers it, and makes a file
   durable on FSYNC with fdatasync or fsync of the backing descriptor,
   as the kernel asks.  So a read through the mount reaches the backing
   file's page cache (on the guest's ext4 disk), and a sync through the
   mount reaches its disk.

   passthrough BACKING MOUNTPOINT [FUSE-OPTIONS...]
     Runs in the foreground, single-threaded, until the mount point is
     unmounted; prints "passthrough: async_dio on" or "... off" once
     the kernel has answered FUSE_INIT.

   libfuse3's high-level API; built statically for the guest with
   -D__O_RSYNC= the kernel's synchronized-read bit (the facts file).
   Copyright (C) 2026 The osync-glibc authors.  GPL-2.0-or-later.  */

#define FUSE_USE_VERSION 31
#define _GNU_SOURCE 1
#include <errno.h>
#include <fcntl.h>
#include <fuse.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef __O_RSYNC
# error "build with -D__O_RSYNC= the value of the facts file"
#endif

static const char *backing;

/* The backing path of PATH (which starts with '/') in BUF.  */
static const char *
real_path (char *buf, const char *path)
{
  snprintf (buf, PATH_MAX, "%s%s", backing, path);
  return buf;
}

static void *
pt_init (struct fuse_conn_info *conn, struct fuse_config *cfg)
{
  cfg->use_ino = 1;
  cfg->direct_io = 1;
  /* No attribute or entry caching: the backing file changes under the
     mount (the test writes it from the side).  */
  cfg->attr_timeout = 0;
  cfg->entry_timeout = 0;
  cfg->negative_timeout = 0;
  if (conn->capable & FUSE_CAP_ASYNC_DIO)
    conn->want |= FUSE_CAP_ASYNC_DIO;
  printf ("passthrough: async_dio %s\n",
          conn->want & FUSE_CAP_ASYNC_DIO ? "on" : "off");
  fflush (stdout);
  return NULL;
}

static int
pt_getattr (const char *path, struct stat *st, struct fuse_file_info *fi)
{
  char buf[PATH_MAX];
  int r = fi != NULL ? fstat (fi->fh, st) : lstat (real_path (buf, path), st);
  return r == 0 ? 0 : -errno;
}

/* Open the backing file of PATH with the kernel's FLAGS, less what the
   server must not apply itself, and MODE, into FI.  The sync flags stay
   the kernel's business: the server's own descriptor is a plain one,
   made durable only by FSYNC.  The kernel passes the synchronized-read
   bit on as it passes O_SYNC; opening the backing file with it would
   sync each read twice, once here and once by the FSYNC the kernel
   sends after it.  */
static int
open_backing (const char *path, int flags, mode_t mode,
              struct fuse_file_info *fi)
{
  char buf[PATH_MAX];
  int fd = open (real_path (buf, path),
                 flags & ~(O_SYNC | O_DSYNC | __O_RSYNC | O_DIRECT), mode);
  if (fd < 0)
    return -errno;
  fi->fh = fd;
  fi->direct_io = 1;
  return 0;
}

static int
pt_open (const char *path, struct fuse_file_info *fi)
{
  return open_backing (path, fi->flags & ~(O_CREAT | O_EXCL | O_TRUNC), 0,
                       fi);
}

static int
pt_create (const char *path, mode_t mode, struct fuse_file_info *fi)
{
  return open_backing (path, fi->flags | O_CREAT, mode, fi);
}

static int
pt_read (const char *path, char *data, size_t size, off_t off,
         struct fuse_file_info *fi)
{
  ssize_t n = pread (fi->fh, data, size, off);
  return n >= 0 ? (int) n : -errno;
}

static int
pt_write (const char *path, const char *data, size_t size, off_t off,
          struct fuse_file_info *fi)
{
  ssize_t n = pwrite (fi->fh, data, size, off);
  return n >= 0 ? (int) n : -errno;
}

static int
pt_fsync (const char *path, int datasync, struct fuse_file_info *fi)
{
  int r = datasync ? fdatasync (fi->fh) : fsync (fi->fh);
  return r == 0 ? 0 : -errno;
}

static int
pt_release (const char *path, struct fuse_file_info *fi)
{
  close (fi->fh);
  return 0;
}

static int
pt_truncate (const char *path, off_t size, struct fuse_file_info *fi)
{
  char buf[PATH_MAX];
  int r = fi != NULL ? ftruncate (fi->fh, size)
                     : truncate (real_path (buf, path), size);
  return r == 0 ? 0 : -errno;
}

static int
pt_unlink (const char *path)
{
  char buf[PATH_MAX];
  return unlink (real_path (buf, path)) == 0 ? 0 : -errno;
}

static const struct fuse_operations ops =
{
  .init = pt_init,
  .getattr = pt_getattr,
  .open = pt_open,
  .create = pt_create,
  .read = pt_read,
  .write = pt_write,
  .fsync = pt_fsync,
  .release = pt_release,
  .truncate = pt_truncate,
  .unlink = pt_unlink,
};

int
main (int argc, char **argv)
{
  if (argc < 3)
    {
      fprintf (stderr, "usage: passthrough BACKING MOUNTPOINT [FUSE-OPTIONS...]\n");
      return 2;
    }
  backing = realpath (argv[1], NULL);
  if (backing == NULL)
    {
      fprintf (stderr, "passthrough: %s: %s\n", argv[1], strerror (errno));
      return 1;
    }
  /* fuse_main's own arguments: the mount point, in the foreground,
     single-threaded, then the caller's options.  */
  char *fargv[argc + 3];
  int fargc = 0;
  fargv[fargc++] = argv[0];
  fargv[fargc++] = argv[2];
  fargv[fargc++] = (char *) "-f";
  fargv[fargc++] = (char *) "-s";
  for (int i = 3; i < argc; i++)
    fargv[fargc++] = argv[i];
  fargv[fargc] = NULL;
  return fuse_main (fargc, fargv, &ops, NULL);
}
