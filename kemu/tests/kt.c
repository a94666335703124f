/* kt -- what the kernel received, seen from inside a tracee of kemu.
   Built both 64-bit (kt64) and 32-bit (kt32).
   Copyright (C) 2026 The osync-glibc authors.  GPL-2.0-or-later.

   kt open FILE FLAGS      open(2) FILE with FLAGS (octal); print the
   kt openat FILE FLAGS    fd's F_GETFL as "getfl OCTAL"
   kt fork FILE FLAGS      the same, from a forked child
   kt thread FILE FLAGS    the same, from a second thread
   kt setfl FILE FLAGS     open FILE, F_SETFL FLAGS (with fcntl, and on
			   i386 also fcntl64), print "setfl 0"
   kt inherit FILE FLAGS   open FILE with FLAGS, fork; the child prints
			   the inherited fd's F_GETFL
   kt reuse FILE FLAGS     open FILE with FLAGS, close it, make a pipe
			   whose read end gets the same descriptor number,
			   and print the pipe's F_GETFL
   kt openat2 FILE [FLAGS] print "openat2 ok", "openat2 ENOSYS" or
			   "openat2 " and the error's text
   kt exit N               exit with status N
   kt kill                 kill itself with SIGTERM
   kt signal               receive SIGUSR1 from itself and from a
			   child; print "signals 2"

   The system calls are made with syscall(2), so that each names the
   call that the kernel (and kemu) sees, whatever the C library's
   open() uses.  */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/wait.h>

static const char *file;
static long flags;
static int use_openat;

/* open FILE as asked and print its F_GETFL.  */
static void *
open_and_report (void *unused)
{
  long fd;

  (void) unused;
  if (use_openat)
    fd = syscall (SYS_openat, AT_FDCWD, file, flags, 0600);
  else
    fd = syscall (SYS_open, file, flags, 0600);
  if (fd < 0)
    {
      printf ("getfl error %s\n", strerror (errno));
      exit (1);
    }
  printf ("getfl %#lo\n", (long) fcntl (fd, F_GETFL));
  fflush (stdout);
  close (fd);
  return NULL;
}

static volatile sig_atomic_t nsignals;

static void
on_usr1 (int sig)
{
  (void) sig;
  nsignals++;
}

static int
do_signal (void)
{
  struct sigaction sa;
  pid_t pid;

  memset (&sa, 0, sizeof sa);
  sa.sa_handler = on_usr1;
  sigaction (SIGUSR1, &sa, NULL);
  alarm (10);			/* A lost signal fails, not hangs.  */
  raise (SIGUSR1);		/* Not blocked: handled before it returns.  */
  /* Block the child's signal until sigsuspend, so that it cannot come
     between the test of nsignals and the wait.  */
  sigset_t block, old;
  sigemptyset (&block);
  sigaddset (&block, SIGUSR1);
  sigprocmask (SIG_BLOCK, &block, &old);
  pid = fork ();
  if (pid == 0)
    {
      kill (getppid (), SIGUSR1);
      _exit (0);
    }
  while (nsignals < 2)
    sigsuspend (&old);
  sigprocmask (SIG_SETMASK, &old, NULL);
  waitpid (pid, NULL, 0);
  printf ("signals %d\n", (int) nsignals);
  return 0;
}

int
main (int argc, char **argv)
{
  const char *cmd = argc > 1 ? argv[1] : "";

  if (argc == 4 || (argc == 3 && strcmp (cmd, "openat2") == 0))
    {
      file = argv[2];
      flags = argc == 4 ? strtol (argv[3], NULL, 8) : 0;
    }

  if (argc == 4 && strcmp (cmd, "open") == 0)
    open_and_report (NULL);
  else if (argc == 4 && strcmp (cmd, "openat") == 0)
    {
      use_openat = 1;
      open_and_report (NULL);
    }
  else if (argc == 4 && strcmp (cmd, "fork") == 0)
    {
      int status;
      pid_t pid = fork ();

      if (pid == 0)
	{
	  open_and_report (NULL);
	  _exit (0);
	}
      if (waitpid (pid, &status, 0) != pid || status != 0)
	return 1;
    }
  else if (argc == 4 && strcmp (cmd, "thread") == 0)
    {
      pthread_t t;

      if (pthread_create (&t, NULL, open_and_report, NULL) != 0)
	return 1;
      pthread_join (t, NULL);
    }
  else if (argc == 4 && strcmp (cmd, "setfl") == 0)
    {
      long fd = syscall (SYS_open, file, O_RDONLY);

      if (fd < 0 || syscall (SYS_fcntl, fd, F_SETFL, flags) != 0)
	return 1;
#ifdef SYS_fcntl64
      /* i386 has both; the C library uses this one.  */
      if (syscall (SYS_fcntl64, fd, F_SETFL, flags) != 0)
	return 1;
#endif
      printf ("setfl 0\n");
    }
  else if (argc == 4 && strcmp (cmd, "inherit") == 0)
    {
      int status;
      long fd = syscall (SYS_open, file, flags, 0600);
      pid_t pid;

      if (fd < 0)
	return 1;
      fflush (stdout);
      pid = fork ();
      if (pid == 0)
	{
	  printf ("getfl %#lo\n", (long) fcntl (fd, F_GETFL));
	  fflush (stdout);
	  _exit (0);
	}
      if (waitpid (pid, &status, 0) != pid || status != 0)
	return 1;
    }
  else if (argc == 4 && strcmp (cmd, "reuse") == 0)
    {
      /* Not an open: kemu does not see the new descriptor made.  */
      long fd = syscall (SYS_open, file, flags, 0600);
      int p[2];

      if (fd < 0 || close (fd) != 0 || pipe (p) != 0)
	return 1;
      if (p[0] != fd)
	{
	  printf ("reuse: got fd %d, want %ld\n", p[0], fd);
	  return 1;
	}
      printf ("getfl %#lo\n", (long) fcntl (p[0], F_GETFL));
    }
  else if ((argc == 3 || argc == 4) && strcmp (cmd, "openat2") == 0)
    {
      /* struct open_how, spelled out to need no kernel header.  */
      uint64_t how[3] = { flags, 0, 0 };
      long fd = syscall (SYS_openat2, AT_FDCWD, file, how, sizeof how);

      printf ("openat2 %s\n", fd >= 0 ? "ok"
	      : errno == ENOSYS ? "ENOSYS" : strerror (errno));
    }
  else if (argc == 3 && strcmp (cmd, "exit") == 0)
    return atoi (argv[2]);
  else if (argc == 2 && strcmp (cmd, "kill") == 0)
    {
      kill (getpid (), SIGTERM);
      pause ();
    }
  else if (argc == 2 && strcmp (cmd, "signal") == 0)
    return do_signal ();
  else
    {
      fprintf (stderr, "kt: bad arguments\n");
      return 2;
    }
  return 0;
}
