/* The guest side of the crash harness: a workload that writes (or
   reads) records on the ext4 file system that sits on a dm-log-writes
   target, and marks the log right after each synchronized call
   returns, so that every crash state knows what had been acknowledged.
   Built against a glibc's headers by driver/stagecc.sh (patched, 2.36,
   or with -DPRE_2_12 the values before 2.12, tests/lib/old-fcntl.h)
   and run under the patched glibc.

     crashwl MODE LABEL DMNAME DIR N

   LABEL names the file DIR/LABEL and the marks; DMNAME is the
   log-writes device.  A record is one 4096-byte block holding
   "LABEL:BLOCK:GEN;" repeated (tests/crash/crashcheck.py builds the
   same).  The file starts with N blocks of generation 0, made durable
   with fsync (file and directory), then mark "B:LABEL".  MODE:
     odsync, osync    open with O_DSYNC or O_SYNC as the headers define
                      them; N writes, alternately an overwrite of block
                      0, 1, ... and an append after the end;
     fdatasync, fsync plain writes, each followed by that call;
     plain            plain writes, no sync at all (the control);
     writeback        overwrites of block 0, 1, ... each written back
                      with sync_file_range (WRITE and both WAITs) and
                      not flushed: the write has reached the disk's
                      volatile cache when the call returns, and a power
                      cut may still lose it (what crashcheck.py's model
                      of the cache must show, wherever the workload
                      sits in the run);
   each acknowledged write is marked "A:LABEL:BLOCK:GEN:MSEC:MNSEC:SIZE"
   (the file's mtime and size after the call, from fstat).
     rsync-dsync, rsync-sync
                      a writer process overwrites block i (generation
                      i+1) without syncing, for even i also writing it
                      back (sync_file_range WRITE|WAIT_AFTER, no
                      flush); then this process reads it through a
                      descriptor opened O_RSYNC|O_DSYNC (or
                      O_RSYNC|O_SYNC), checks the bytes and marks
                      "R:LABEL:BLOCK:GEN:ASEC:ANSEC" (atime after the
                      read).
     rsync-direct     the same, but the writer writes the even blocks
                      through O_DIRECT, without O_DSYNC (nothing in the
                      page cache, the data in the disk's volatile
                      cache), the odd ones as before, and the reader
                      opens O_RSYNC|O_DSYNC|O_DIRECT.
   Ends with mark "E:LABEL" and prints "crashwl: ok LABEL N".
   Built with -DCRASH_PLANT_DROP_SYNC, it drops O_DSYNC and O_SYNC
   before the open: a planted bug the harness must catch.
   Copyright (C) 2026 The osync-glibc authors.  GPL-2.0-or-later.  */
#define _GNU_SOURCE 1
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "old-fcntl.h"
#include "osync-facts.h"	/* driver/facts.py c-header */
#include "dmlog.h"

#ifdef PATCHED_HEADERS
/* The patched headers give O_RSYNC its own bit, the project's.  */
_Static_assert ((O_RSYNC & OSYNC_RSYNC_BIT) != 0,
		"O_RSYNC of the patched headers lacks OSYNC_RSYNC_BIT");
#endif

#define BLK 4096

static const char *label, *dmname;

static void
die (const char *what)
{
  printf ("crashwl: error: %s: %s: %s\n", label, what, strerror (errno));
  fflush (stdout);
  exit (1);
}

static void
record (char *buf, long blk, long gen)
{
  char unit[256];
  int n = snprintf (unit, sizeof unit, "%s:%ld:%ld;", label, blk, gen);
  for (int i = 0; i < BLK; i++)
    buf[i] = unit[i % n];
}

static void
mark (const char *fmt, ...)
{
  char m[400];
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (m, sizeof m, fmt, ap);
  va_end (ap);
  if (dmlog_mark (dmname, m) != 0)
    die ("mark");
}

/* A short pause, so that successive writes get distinct timestamps
   (the kernel's clock for file times is coarse).  */
static void
pause_a_tick (void)
{
  struct timespec ts = { 0, 5 * 1000 * 1000 };
  nanosleep (&ts, NULL);
}

int
main (int argc, char **argv)
{
  if (argc != 6)
    {
      printf ("crashwl: error: usage: crashwl MODE LABEL DMNAME DIR N\n");
      return 2;
    }
  const char *mode = argv[1];
  label = argv[2];
  dmname = argv[3];
  const char *dir = argv[4];
  long n = atol (argv[5]);
  char path[4096];
  static char buf[BLK] __attribute__ ((aligned (4096)));
  static char got[BLK] __attribute__ ((aligned (4096)));
  snprintf (path, sizeof path, "%s/%s", dir, label);

  /* The starting state, durable.  */
  int fd = open (path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0)
    die ("create");
  for (long b = 0; b < n; b++)
    {
      record (buf, b, 0);
      if (pwrite (fd, buf, BLK, b * BLK) != BLK)
	die ("initial pwrite");
    }
  int dfd = open (dir, O_RDONLY | O_DIRECTORY);
  if (fsync (fd) != 0 || dfd < 0 || fsync (dfd) != 0)
    die ("initial fsync");
  close (dfd);
  close (fd);
  mark ("B:%s", label);

  int flags = O_WRONLY;
  if (strcmp (mode, "odsync") == 0)
    flags |= O_DSYNC;
  else if (strcmp (mode, "osync") == 0)
    flags |= O_SYNC;
  else if (strcmp (mode, "fdatasync") != 0 && strcmp (mode, "fsync") != 0
	   && strcmp (mode, "plain") != 0 && strcmp (mode, "writeback") != 0
	   && strncmp (mode, "rsync-", 6) != 0)
    {
      errno = EINVAL;
      die ("unknown MODE");
    }

#ifdef CRASH_PLANT_DROP_SYNC
  /* The harness's self-test: a C library that loses the flag.  */
  flags &= ~(O_DSYNC | O_SYNC);
#endif
  if (strncmp (mode, "rsync-", 6) != 0)
    {
#ifdef CRASH_OLD_OPEN
      /* Through a library that needs only the versions of glibc 2.11
	 and earlier (oldopen.c), as a program of that time would.  */
      extern int crash_old_open (const char *, int);
      fd = crash_old_open (path, flags);
#else
      fd = open (path, flags);
#endif
      if (fd < 0)
	die ("open");
      long over = 0, end = n;
      /* Only overwrites for writeback: an append written back is lost
	 with its size, which the journal commits later, flushed or not.  */
      int writeback = strcmp (mode, "writeback") == 0;
      for (long i = 0; i < n; i++)
	{
	  long blk = (writeback || i % 2 == 0) ? over++ : end++;
	  long gen = i + 1;
	  pause_a_tick ();
	  record (buf, blk, gen);
	  if (pwrite (fd, buf, BLK, blk * BLK) != BLK)
	    die ("pwrite");
	  if (strcmp (mode, "fdatasync") == 0 && fdatasync (fd) != 0)
	    die ("fdatasync");
	  if (strcmp (mode, "fsync") == 0 && fsync (fd) != 0)
	    die ("fsync");
	  if (writeback
	      && sync_file_range (fd, blk * BLK, BLK,
				  SYNC_FILE_RANGE_WAIT_BEFORE
				  | SYNC_FILE_RANGE_WRITE
				  | SYNC_FILE_RANGE_WAIT_AFTER) != 0)
	    die ("sync_file_range");
	  struct stat st;
	  if (fstat (fd, &st) != 0)
	    die ("fstat");
	  mark ("A:%s:%ld:%ld:%lld:%ld:%lld", label, blk, gen,
		(long long) st.st_mtim.tv_sec, (long) st.st_mtim.tv_nsec,
		(long long) st.st_size);
	}
      close (fd);
    }
  else
    {
      int direct = strcmp (mode, "rsync-direct") == 0;
      int rflags = O_RDONLY | O_RSYNC | (direct ? O_DIRECT : 0)
	| (strcmp (mode, "rsync-sync") == 0 ? O_SYNC : O_DSYNC);
      int rfd = open (path, rflags);
      if (rfd < 0)
	die ("open O_RSYNC");
      int go[2], done[2];
      if (pipe (go) != 0 || pipe (done) != 0)
	die ("pipe");
      pid_t pid = fork ();
      if (pid < 0)
	die ("fork");
      if (pid == 0)
	{
	  /* The writer: no sync.  */
	  int wfd = open (path, O_WRONLY);
	  int ofd = direct ? open (path, O_WRONLY | O_DIRECT) : -1;
	  if (wfd < 0 || (direct && ofd < 0))
	    die ("writer open");
	  for (long i = 0; i < n; i++)
	    {
	      char c;
	      if (read (go[0], &c, 1) != 1)
		_exit (1);
	      record (buf, i, i + 1);
	      if (pwrite (direct && i % 2 == 0 ? ofd : wfd, buf, BLK,
			  i * BLK) != BLK)
		die ("writer pwrite");
	      if (i % 2 == 0 && !direct
		  && sync_file_range (wfd, i * BLK, BLK,
				      SYNC_FILE_RANGE_WRITE
				      | SYNC_FILE_RANGE_WAIT_AFTER) != 0)
		die ("sync_file_range");
	      if (write (done[1], "x", 1) != 1)
		_exit (1);
	    }
	  _exit (0);
	}
      for (long i = 0; i < n; i++)
	{
	  char c;
	  pause_a_tick ();
	  if (write (go[1], "x", 1) != 1 || read (done[0], &c, 1) != 1)
	    die ("the writer");
	  if (pread (rfd, got, BLK, i * BLK) != BLK)
	    die ("pread");
	  record (buf, i, i + 1);
	  if (memcmp (got, buf, BLK) != 0)
	    {
	      errno = EIO;
	      die ("the read returned other bytes than the writer wrote");
	    }
	  struct stat st;
	  if (fstat (rfd, &st) != 0)
	    die ("fstat");
	  mark ("R:%s:%ld:%ld:%lld:%ld", label, i, i + 1,
		(long long) st.st_atim.tv_sec, (long) st.st_atim.tv_nsec);
	}
      int status;
      if (waitpid (pid, &status, 0) != pid || status != 0)
	{
	  errno = ECHILD;
	  die ("the writer failed");
	}
      close (rfd);
    }
  mark ("E:%s", label);
  printf ("crashwl: ok %s %ld\n", label, n);
  return 0;
}
