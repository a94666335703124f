/* The init of the test guest: mount /proc, /sys, /dev and /tmp, run
   each line of /tests.list ("LABEL [NAME=VALUE...] PROGRAM ARGS...",
   separated by spaces; the NAME=VALUE words go into the program's
   environment) with its output on the console between "osync-guest:
   begin LABEL" and "osync-guest: end LABEL STATUS MS ms" (MS: the
   program's wall time in the guest), then reboot, which ends QEMU
   (guest.sh runs it with -no-reboot): a kernel without ACPI, as
   kernel/build-kernel.sh builds them, cannot power the machine off.
   Five labels are commands of init itself: "@insmod MODULE.ko" loads
   a module, "@mount DEVICE DIR TYPE [OPTIONS]" mounts a file system,
   "@chdir DIR" makes DIR the working directory of the programs that
   follow, "@user UID GID" runs them as that user and group, without
   supplementary groups or capabilities ("@user 0 0" goes back to
   root), and "@hostroot TAG" makes the host's root file system,
   shared read-only over 9p under mount tag TAG (QEMU's -virtfs), the
   root of the programs that follow: it is the lower layer of an
   overlay whose upper layer is a tmpfs, so the whole tree is writable
   and what the guest writes stays in its memory; /proc, /sys, /dev
   (with /dev/shm and /dev/pts) and /tmp are mounted afresh in it
   (tests/qemu/hostguest.sh).  The first line names the kernel and the
   machine ("osync-guest: kernel RELEASE MACHINE"), the second the
   processors online ("osync-guest: cpus N"), which guest.sh checks
   against its --smp.  After the last program, before "osync-guest:
   done", init prints the kernel's taint flags ("osync-guest: tainted
   N": a WARN, a BUG, a KASAN report set them) and, on a kernel with
   lockdep, whether it is still on ("osync-guest: debug_locks N": a
   lockdep report turns it off); if either says the kernel reported
   something, the kernel's log follows ("osync-guest: log: LINE"), which
   the console's "quiet" level may have kept from the console.
   Copyright (C) 2026 The osync-glibc authors.  GPL-2.0-or-later.  */
#define _GNU_SOURCE 1
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <grp.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <sys/klog.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The number in the first line of FILE that starts with KEY (KEY ""
   for the first line), or -1.  */
static long
number_in (const char *file, const char *key)
{
  FILE *f = fopen (file, "r");
  char line[256];
  long n = -1;
  while (f != NULL && fgets (line, sizeof line, f) != NULL)
    {
      const char *p = line + strspn (line, " ");
      if (strncmp (p, key, strlen (key)) == 0)
        {
          n = strtol (p + strlen (key), NULL, 10);
          break;
        }
    }
  if (f != NULL)
    fclose (f);
  return n;
}

/* klogctl's actions (syslog(2)); no header of the C library names them.  */
#define LOG_READ_ALL 3
#define LOG_SIZE_BUFFER 10

/* The taint flags and lockdep's state, and the kernel's log if either
   says the kernel reported something: see the comment at the top.  */
static void
kernel_state (void)
{
  long tainted = number_in ("/proc/sys/kernel/tainted", "");
  long locks = number_in ("/proc/lockdep_stats", "debug_locks:");
  printf ("osync-guest: tainted %ld\n", tainted);
  if (locks >= 0)
    printf ("osync-guest: debug_locks %ld\n", locks);
  if (tainted == 0 && locks != 0)
    return;
  int size = klogctl (LOG_SIZE_BUFFER, NULL, 0);
  char *log = size > 0 ? malloc (size + 1) : NULL;
  int n = log != NULL ? klogctl (LOG_READ_ALL, log, size) : -1;
  for (int i = 0; i < n; )
    {
      int end = i;
      while (end < n && log[end] != '\n')
        end++;
      printf ("osync-guest: log: %.*s\n", end - i, log + i);
      i = end + 1;
    }
  free (log);
}

/* mkdir and mount, or say why not on the console; 0 or -1.  */
static int
mount_at (const char *dev, const char *dir, const char *type,
          unsigned long flags, const char *opts)
{
  mkdir (dir, 0755);
  if (mount (dev, dir, type, flags, opts) != 0)
    {
      printf ("osync-guest: mount %s on %s (%s) failed: %m\n", dev, dir, type);
      return -1;
    }
  return 0;
}

/* @hostroot TAG: see the comment at the top.  */
static int
host_root (const char *tag)
{
  /* 9p2000.L with the page cache: the lower layer never changes while
     the guest runs.  */
  if (mount_at (tag, "/hostroot", "9p", MS_RDONLY,
                "trans=virtio,version=9p2000.L,msize=512000,cache=loose") != 0
      || mount_at ("tmpfs", "/rw", "tmpfs", 0, "mode=0755") != 0)
    return -1;
  mkdir ("/rw/upper", 0755);
  mkdir ("/rw/work", 0755);
  if (mount_at ("overlay", "/newroot", "overlay", 0,
                "lowerdir=/hostroot,upperdir=/rw/upper,workdir=/rw/work") != 0
      || mount_at ("proc", "/newroot/proc", "proc", 0, NULL) != 0
      || mount_at ("sysfs", "/newroot/sys", "sysfs", 0, NULL) != 0
      || mount_at ("devtmpfs", "/newroot/dev", "devtmpfs", 0, NULL) != 0
      || mount_at ("tmpfs", "/newroot/dev/shm", "tmpfs", 0, "mode=1777") != 0
      || mount_at ("devpts", "/newroot/dev/pts", "devpts", 0, "ptmxmode=0666") != 0
      || mount_at ("tmpfs", "/newroot/tmp", "tmpfs", 0, "mode=1777") != 0
      || mount_at ("tmpfs", "/newroot/run", "tmpfs", 0, "mode=0755") != 0)
    return -1;
  if (chroot ("/newroot") != 0 || chdir ("/") != 0)
    {
      printf ("osync-guest: chroot /newroot failed: %m\n");
      return -1;
    }
  printf ("osync-guest: the host's root (9p %s) is the root, writable in memory\n", tag);
  return 0;
}

static long long
now_ms (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

int
main (void)
{
  mount ("proc", "/proc", "proc", 0, NULL);
  mkdir ("/sys", 0755);
  mount ("sysfs", "/sys", "sysfs", 0, NULL);
  mount ("devtmpfs", "/dev", "devtmpfs", 0, NULL);
  mount ("tmpfs", "/tmp", "tmpfs", 0, NULL);
  FILE *f = fopen ("/tests.list", "r");
  char line[4096];
  struct utsname u;
  if (uname (&u) == 0)
    printf ("osync-guest: kernel %s %s\n", u.release, u.machine);
  printf ("osync-guest: cpus %ld\n", sysconf (_SC_NPROCESSORS_ONLN));
  printf ("osync-guest: start\n");
  long uid = 0, gid = 0;
  while (f != NULL && fgets (line, sizeof line, f) != NULL)
    {
      line[strcspn (line, "\n")] = '\0';
      char *argv[64];
      int argc = 0;
      for (char *tok = strtok (line, " "); tok != NULL && argc < 63;
           tok = strtok (NULL, " "))
        argv[argc++] = tok;
      argv[argc] = NULL;
      if (argc < 2)
        continue;
      if (strcmp (argv[0], "@insmod") == 0)
        {
          int fd = open (argv[1], O_RDONLY | O_CLOEXEC);
          if (fd < 0 || syscall (SYS_finit_module, fd, "", 0) != 0)
            printf ("osync-guest: insmod %s failed: %m\n", argv[1]);
          if (fd >= 0)
            close (fd);
          continue;
        }
      if (strcmp (argv[0], "@mount") == 0 && (argc == 4 || argc == 5))
        {
          mount_at (argv[1], argv[2], argv[3], 0, argc == 5 ? argv[4] : NULL);
          continue;
        }
      if (strcmp (argv[0], "@hostroot") == 0)
        {
          if (host_root (argv[1]) != 0)
            break;
          continue;
        }
      if (strcmp (argv[0], "@user") == 0 && argc == 3)
        {
          uid = strtol (argv[1], NULL, 10);
          gid = strtol (argv[2], NULL, 10);
          continue;
        }
      if (strcmp (argv[0], "@chdir") == 0)
        {
          if (chdir (argv[1]) != 0)
            printf ("osync-guest: chdir %s failed: %m\n", argv[1]);
          continue;
        }
      printf ("osync-guest: begin %s\n", argv[0]);
      fflush (stdout);
      long long start = now_ms ();
      pid_t pid = fork ();
      if (pid == 0)
        {
          /* NAME=VALUE words before the program go into its
             environment.  */
          int first = 1;
          while (argv[first] != NULL && argv[first][0] != '/'
                 && strchr (argv[first], '=') != NULL)
            putenv (argv[first++]);
          if (uid != 0 || gid != 0)
            if (setgroups (0, NULL) != 0 || setgid (gid) != 0
                || setuid (uid) != 0)
              {
                perror ("osync-guest: @user");
                _exit (127);
              }
          execv (argv[first], argv + first);
          perror ("execv");
          _exit (127);
        }
      int status = 0;
      waitpid (pid, &status, 0);
      printf ("osync-guest: end %s %d %lld ms\n", argv[0],
              WIFEXITED (status) ? WEXITSTATUS (status) : 128 + WTERMSIG (status),
              now_ms () - start);
      fflush (stdout);
    }
  kernel_state ();
  printf ("osync-guest: done\n");
  fflush (stdout);
  sync ();
  reboot (RB_AUTOBOOT);
  return 0;
}
