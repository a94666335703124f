/* Call one entry point that forwards open flags, in the version named
   on the command line, with whole sets of open flags and a sync
   request, so that a trace of the system calls under the unpatched and
   the patched glibc can be compared argument by argument
   (wholeargs.exp).

     wholeargs DIR NAME@VERSION...

   VERSION is a symbol version (dlvsym) or "default" (dlsym: the
   version a program built today links to).  Before each call the
   program calls access ("DIR/osync-wa-mark-N"), which the trace shows,
   and prints "N NAME@VERSION FLAGS: RESULT", RESULT being the mode of
   the file it made or opened (fstat) or the error.  When it cannot call
   an entry point (open_by_handle_at without a handle, which a file
   system without handles refuses), it prints "skipped NAME@VERSION:
   WHY" instead, once.  The sync bits come
   from the command line's compiler (-DOSYNC_RSYNC_BIT, and the
   asm-generic values of O_DSYNC and the kernel's __O_SYNC), not from
   the headers, so that the same program runs under both glibcs.
   Copyright (C) 2026 The osync-glibc authors.  GPL-2.0-or-later.  */
#define _GNU_SOURCE 1
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define DSYNC 010000
#define FULLSYNC 04000000
#define RSYNC OSYNC_RSYNC_BIT

static const int syncs[] =
  { 0, DSYNC, FULLSYNC | DSYNC, RSYNC | DSYNC, RSYNC | FULLSYNC | DSYNC,
    RSYNC };

static const char *dir;
static int serial;

static char *
name_in_dir (const char *name)
{
  char *p;
  if (asprintf (&p, "%s/%s", dir, name) < 0)
    abort ();
  return p;
}

/* Announce call N in the trace and on the output.  */
static void
mark (const char *what, int flags)
{
  char *m;
  if (asprintf (&m, "osync-wa-mark-%d", ++serial) < 0)
    abort ();
  char *p = name_in_dir (m);
  access (p, F_OK);
  free (p);
  free (m);
  printf ("%d %s %#o: ", serial, what, flags);
}

/* Print the result of a call that returned FD (errno ERR).  */
static void
result (int fd, int err)
{
  struct stat st;
  if (fd < 0)
    printf ("error %s\n", strerrorname_np (err));
  else if (fstat (fd, &st) != 0)
    printf ("fstat failed\n");
  else
    printf ("mode %#o\n", (unsigned int) st.st_mode);
  if (fd >= 0)
    close (fd);
}

static void *
lookup (const char *sym, const char *version)
{
  void *f = strcmp (version, "default") == 0 ? dlsym (RTLD_DEFAULT, sym)
    : dlvsym (RTLD_DEFAULT, sym, version);
  if (f == NULL)
    {
      printf ("no %s@%s\n", sym, version);
      exit (1);
    }
  return f;
}

/* The flag sets: creating ones (with a mode), and opening ones.  */
static const struct { int flags; mode_t mode; const char *file; } creating[] =
  {
    { O_WRONLY | O_CREAT | O_EXCL, 04751, "osync-wa-new" },
    { O_RDWR | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0640,
      "osync-wa-file" },
    { O_RDWR | O_TMPFILE, 0600, "" },
  };
static const int opening =
  O_RDWR | O_TRUNC | O_APPEND | O_CLOEXEC | O_NOFOLLOW;

int
main (int argc, char **argv)
{
  if (argc < 3)
    {
      fprintf (stderr, "usage: %s DIR NAME@VERSION...\n", argv[0]);
      return 2;
    }
  dir = argv[1];
  /* Each line out before the next call, whatever happens to it.  */
  setvbuf (stdout, NULL, _IOLBF, 0);
  umask (022);
  char *file = name_in_dir ("osync-wa-file");
  char *new_file = name_in_dir (creating[0].file);
  close (open (file, O_RDWR | O_CREAT, 0600));
  struct file_handle *handle = malloc (sizeof *handle + MAX_HANDLE_SZ);
  handle->handle_bytes = MAX_HANDLE_SZ;
  int mount_id;
  int have_handle = name_to_handle_at (AT_FDCWD, file, handle, &mount_id,
				       0) == 0;
  int handle_err = errno;
  int dirfd = open (dir, O_RDONLY | O_DIRECTORY);

  for (int a = 2; a < argc; a++)
    {
      char *sym = strdup (argv[a]);
      char *version = strchr (sym, '@');
      if (version == NULL)
	return 2;
      *version++ = '\0';
      void *f = lookup (sym, version);
      for (size_t s = 0; s < sizeof syncs / sizeof syncs[0]; s++)
	{
	  int sy = syncs[s];
	  int fd, err;
	  size_t len = strlen (sym);
	  if (len > 2 && strcmp (sym + len - 2, "_2") == 0)
	    {
	      /* The fortified functions: no O_CREAT, no mode.  */
	      mark (argv[a], opening | sy);
	      errno = 0;
	      if (strncmp (sym, "__openat", 8) == 0)
		fd = ((int (*) (int, const char *, int)) f)
		  (dirfd, "osync-wa-file", opening | sy);
	      else
		fd = ((int (*) (const char *, int)) f) (file, opening | sy);
	      err = errno;
	      result (fd, err);
	    }
	  else if (strncmp (sym, "mkostemp", 8) == 0)
	    {
	      int suffix = strncmp (sym, "mkostemps", 9) == 0;
	      char *t = name_in_dir (suffix ? "osync-wa-mkXXXXXX.s"
				     : "osync-wa-mkXXXXXX");
	      mark (argv[a], O_APPEND | O_CLOEXEC | sy);
	      errno = 0;
	      if (suffix)
		fd = ((int (*) (char *, int, int)) f) (t, 2,
						       O_APPEND | O_CLOEXEC
						       | sy);
	      else
		fd = ((int (*) (char *, int)) f) (t, O_APPEND | O_CLOEXEC | sy);
	      err = errno;
	      result (fd, err);
	      unlink (t);
	      free (t);
	    }
	  else if (strcmp (sym, "shm_open") == 0)
	    {
	      mark (argv[a], O_RDWR | O_CREAT | O_EXCL | sy);
	      errno = 0;
	      fd = ((int (*) (const char *, int, mode_t)) f)
		("/osync-wa-shm", O_RDWR | O_CREAT | O_EXCL | sy, 0640);
	      err = errno;
	      result (fd, err);
	      shm_unlink ("/osync-wa-shm");
	    }
	  else if (strcmp (sym, "open_by_handle_at") == 0)
	    {
	      if (!have_handle)
		{
		  if (s == 0)
		    printf ("skipped %s: name_to_handle_at on %s failed with %s\n",
			    argv[a], dir, strerrorname_np (handle_err));
		  continue;
		}
	      mark (argv[a], O_RDWR | O_APPEND | O_CLOEXEC | sy);
	      errno = 0;
	      fd = ((int (*) (int, struct file_handle *, int)) f)
		(dirfd, handle, O_RDWR | O_APPEND | O_CLOEXEC | sy);
	      err = errno;
	      result (fd, err);
	    }
	  else if (strcmp (sym, "posix_spawn_file_actions_addopen") == 0)
	    for (size_t c = 0; c < 2; c++)
	      {
		char *p = name_in_dir (creating[c].file);
		unlink (new_file);
		mark (argv[a], creating[c].flags | sy);
		posix_spawn_file_actions_t fa;
		posix_spawn_file_actions_init (&fa);
		int ret = ((int (*) (posix_spawn_file_actions_t *, int,
				     const char *, int, mode_t)) f)
		  (&fa, 3, p, creating[c].flags | sy, creating[c].mode);
		pid_t pid;
		char *args[] = { (char *) "true", NULL };
		if (ret == 0)
		  ret = posix_spawn (&pid, "/bin/true", &fa, NULL, args, NULL);
		posix_spawn_file_actions_destroy (&fa);
		int status = 0;
		if (ret == 0)
		  waitpid (pid, &status, 0);
		if (ret != 0)
		  printf ("error %s\n", strerrorname_np (ret));
		else
		  {
		    struct stat st;
		    if (stat (p, &st) == 0)
		      printf ("status %#x, mode %#o\n", status,
			      (unsigned int) st.st_mode);
		    else
		      printf ("status %#x, no file\n", status);
		  }
		free (p);
	      }
	  else
	    /* open, open64, openat and openat64, and __open, __open64.  */
	    for (size_t c = 0; c < sizeof creating / sizeof creating[0]; c++)
	      {
		int at = strncmp (sym, "openat", 6) == 0;
		const char *rel = creating[c].file[0] ? creating[c].file : ".";
		char *p = name_in_dir (creating[c].file);
		unlink (new_file);
		mark (argv[a], creating[c].flags | sy);
		errno = 0;
		if (at)
		  fd = ((int (*) (int, const char *, int, ...)) f)
		    (dirfd, rel, creating[c].flags | sy, creating[c].mode);
		else
		  fd = ((int (*) (const char *, int, ...)) f)
		    (creating[c].file[0] ? p : dir, creating[c].flags | sy,
		     creating[c].mode);
		err = errno;
		result (fd, err);
		free (p);
	      }
	}
      free (sym);
    }
  unlink (file);
  unlink (new_file);
  return 0;
}
