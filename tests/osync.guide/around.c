/* The disk around the guide's example (doc/guide.md), in the test guest.

   around DEV DIR PROGRAM [ARGS...]
     Writes two files in DIR (on the guest's disk DEV) without syncing
     them: DIR/plain and DIR/data, each a first line "guide line N"
     and 8 KiB in all.  Then, as a yardstick, reads DIR/plain with a
     plain read and prints "plain WRITES FLUSHES", what reached the
     disk (/sys/block/DEV/stat) during that read; then runs PROGRAM
     ARGS (the example, given DIR/data), whose output goes to standard
     output, and prints "example WRITES FLUSHES STATUS", what reached
     the disk while it ran and its exit status.  A synchronized read
     of DIR/data must make it durable: at least a write and a flush;
     a plain read none.

   Copyright (C) 2026 The osync-glibc authors.  GPL-2.0-or-later.  */

#define _GNU_SOURCE 1
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "disk-stat.h"

static void
write_file (const char *path, int n)
{
  char buf[8192];
  memset (buf, 'x', sizeof buf);
  int len = snprintf (buf, sizeof buf, "guide line %d\n", n);
  buf[len] = 'x';
  int fd = open (path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0 || write (fd, buf, sizeof buf) != (ssize_t) sizeof buf
      || close (fd) != 0)
    {
      perror (path);
      exit (1);
    }
}

int
main (int argc, char **argv)
{
  if (argc < 4)
    {
      fprintf (stderr, "usage: %s DEV DIR PROGRAM [ARGS...]\n", argv[0]);
      return 2;
    }
  const char *dev = argv[1];
  char plain[4096], data[4096];
  snprintf (plain, sizeof plain, "%s/plain", argv[2]);
  snprintf (data, sizeof data, "%s/data", argv[2]);
  /* Everything before the measurements is on the disk, so that no
     earlier write completes during them.  */
  sync ();
  write_file (plain, 1);
  write_file (data, 2);

  unsigned long w0, f0, w1, f1;
  char buf[64];
  int fd = open (plain, O_RDONLY);
  disk_stat (dev, &w0, &f0);
  if (fd < 0 || pread (fd, buf, sizeof buf, 0) <= 0)
    {
      perror (plain);
      return 1;
    }
  disk_stat (dev, &w1, &f1);
  close (fd);
  printf ("plain %lu %lu\n", w1 - w0, f1 - f0);
  fflush (stdout);

  disk_stat (dev, &w0, &f0);
  pid_t pid = fork ();
  if (pid < 0)
    {
      perror ("fork");
      return 1;
    }
  if (pid == 0)
    {
      execv (argv[3], argv + 3);
      perror (argv[3]);
      _exit (127);
    }
  int status;
  if (waitpid (pid, &status, 0) != pid)
    {
      perror ("waitpid");
      return 1;
    }
  disk_stat (dev, &w1, &f1);
  printf ("example %lu %lu %d\n", w1 - w0, f1 - f0,
          WIFEXITED (status) ? WEXITSTATUS (status) : 128 + WTERMSIG (status));
  return 0;
}
