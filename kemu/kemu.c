/* kemu -- run a command under an older Linux kernel's open-flag ABI.
   Copyright (C) 2026 The osync-glibc authors.  GPL-2.0-or-later.

   Kernels before 2.6.33 did not know __O_SYNC and silently ignored it,
   and every kernel ignores (in open) the bits it does not know.  No
   such kernel can be booted on the test machines, so kemu stops the
   open-family system calls of a command (with a seccomp filter that
   returns SECCOMP_RET_TRACE for them only) and clears, before the
   kernel sees them, the flag bits the emulated kernel did not know.
   Everything else runs untouched on the real kernel.  See README.  */

#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

#ifndef __x86_64__
# error "kemu is an x86_64 program (it traces x86_64 and i386 tracees)"
#endif

/* The x86 (asm-generic) open flags.  Spelled out here rather than
   taken from <fcntl.h>: these are the kernel's values, whatever the C
   library under test calls O_SYNC.  */
#define K_ACCMODE    00000003
#define K_CREAT      00000100
#define K_EXCL       00000200
#define K_NOCTTY     00000400
#define K_TRUNC      00001000
#define K_APPEND     00002000
#define K_NONBLOCK   00004000
#define K_DSYNC      00010000
#define K_FASYNC     00020000
#define K_DIRECT     00040000
#define K_LARGEFILE  00100000
#define K_DIRECTORY  00200000
#define K_NOFOLLOW   00400000
#define K_NOATIME    01000000
#define K_CLOEXEC    02000000
#define K_SYNC       04000000	/* __O_SYNC, new in 2.6.33.  */
#define K_PATH      010000000	/* New in 2.6.39.  */
#define K_TMPFILE   020000000	/* __O_TMPFILE, new in 3.11.  */

/* What 2.6.32 knew; every later row adds to it.  */
#define K_2_6_32 (K_ACCMODE | K_CREAT | K_EXCL | K_NOCTTY | K_TRUNC	\
		  | K_APPEND | K_NONBLOCK | K_DSYNC | K_FASYNC | K_DIRECT \
		  | K_LARGEFILE | K_DIRECTORY | K_NOFOLLOW | K_NOATIME	\
		  | K_CLOEXEC)
#define K_2_6_33 (K_2_6_32 | K_SYNC)
#define K_2_6_39 (K_2_6_33 | K_PATH)
#define K_3_11 (K_2_6_39 | K_TMPFILE)

struct kernel
{
  const char *name;
  unsigned int known;		/* Open flags this kernel knew.  */
  int has_openat2;
  /* Before Linux 4.13 (commit 629e014bb834, "fs: completely ignore
     unknown open flags"), open ignored the bits it did not know but
     kept them in the file's f_flags, so F_GETFL reported them.  */
  int getfl_keeps_unknown;
};

static const struct kernel kernels[] =
{
  /* Older than glibc 2.36 and 2.44 support (3.2): only a hypothetical
     row for the header rationale (it predates __O_SYNC).  */
  { "2.6.32", K_2_6_32, 0, 1 },
  { "2.6.33", K_2_6_33, 0, 1 },
  { "2.6.39", K_2_6_39, 0, 1 },
  /* The oldest kernel glibc 2.36 and 2.44 run on.  */
  { "3.2", K_2_6_39, 0, 1 },
  { "3.11", K_3_11, 0, 1 },
  { "4.13", K_3_11, 0, 0 },
  /* The last kernel without openat2.  */
  { "5.5", K_3_11, 0, 0 },
  { "5.6", K_3_11, 1, 0 },
  /* No rewriting at all: kemu only traces.  */
  { "current", ~0u, 1, 0 },
};

#define NKERNELS (sizeof kernels / sizeof kernels[0])

/* The tracee's two ABIs.  Their index is part of the filter's return
   data, since nothing else tells a 64-bit tracer at a seccomp stop
   which ABI the tracee entered the kernel through.  */
enum { ARCH_X86_64, ARCH_I386 };
static const char *const arch_names[] = { "x86_64", "i386" };
static const unsigned int audit_arches[] =
  { AUDIT_ARCH_X86_64, AUDIT_ARCH_I386 };

/* How the flags reach the kernel.  */
enum
{
  ARG_NONE = -1,		/* Fixed flags: nothing to rewrite.  */
  ARG_HOW = -2,			/* openat2: flags in struct open_how.  */
  ARG_GETFL = -3		/* F_GETFL: the result is the flags.  */
};

struct call
{
  const char *name;
  int nr[2];			/* Per arch; -1 if the arch lacks it.  */
  int flags_arg;		/* Argument index, or ARG_*.  */
  int cmd;			/* Trace only this cmd (arg 1), or -1.  */
};

#define K_F_GETFL 3
#define K_F_SETFL 4

static const struct call calls[] =
{
  { "open", { 2, 5 }, 1, -1 },
  /* creat's flags are always O_CREAT|O_WRONLY|O_TRUNC, known to every
     kernel; it is listed for completeness and never traced.  */
  { "creat", { 85, 8 }, ARG_NONE, -1 },
  { "openat", { 257, 295 }, 2, -1 },
  { "open_by_handle_at", { 304, 342 }, 2, -1 },
  { "openat2", { 437, 437 }, ARG_HOW, -1 },
  /* F_SETFL on an old kernel ignored unknown bits too.  The entries
     of one system call with a cmd must be adjacent.  */
  { "fcntl", { 72, 55 }, 2, K_F_SETFL },
  { "fcntl", { 72, 55 }, ARG_GETFL, K_F_GETFL },
  { "fcntl64", { -1, 221 }, 2, K_F_SETFL },
  { "fcntl64", { -1, 221 }, ARG_GETFL, K_F_GETFL },
};

#define NCALLS (sizeof calls / sizeof calls[0])

static const struct kernel *kernel;
static FILE *logfp;
/* --log-all: log the traced calls whose flags the kernel knew too, so
   that the log shows every flags word the C library passed.  */
static int log_all;

static void
usage (FILE *fp)
{
  size_t i;

  fprintf (fp, "Usage: kemu --kernel VERSION [--log FILE [--log-all]] -- CMD [ARGS...]\n"
	   "VERSION is one of:");
  for (i = 0; i < NKERNELS; i++)
    fprintf (fp, " %s", kernels[i].name);
  fputc ('\n', fp);
}

/* Build the seccomp filter: for each arch, compare the syscall number
   with each traced call and return SECCOMP_RET_TRACE with data
   (arch << 8 | call index); allow everything else, including unknown
   arches and x32 calls (their numbers carry bit 30, so never match).  */

static struct sock_filter prog[128];
static unsigned short prog_len;

static void
emit (unsigned short code, unsigned int k, unsigned char jt,
      unsigned char jf)
{
  struct sock_filter insn = BPF_JUMP (code, k, jt, jf);

  if (prog_len == sizeof prog / sizeof prog[0])
    abort ();
  prog[prog_len++] = insn;
}

/* Whether call C is traced for ARCH: F_GETFL only where the
   emulated kernel's F_GETFL differs from today's.  */
static int
traced (const struct call *c, int arch)
{
  if (c->nr[arch] < 0 || c->flags_arg == ARG_NONE)
    return 0;
  if (c->flags_arg == ARG_GETFL)
    return kernel->getfl_keeps_unknown;
  return 1;
}

/* Whether calls[I] is the first traced entry of a group of entries
   with a cmd for the same call.  */
static int
group_start (size_t i, int arch)
{
  size_t j;

  for (j = i; j-- > 0 && calls[j].nr[arch] == calls[i].nr[arch];)
    if (traced (&calls[j], arch) && calls[j].cmd >= 0)
      return 0;
  return 1;
}

static void
build_filter (void)
{
  const unsigned int allow = SECCOMP_RET_ALLOW;
  int arch;
  size_t i;

  for (arch = ARCH_X86_64; arch <= ARCH_I386; arch++)
    {
      emit (BPF_LD | BPF_W | BPF_ABS, offsetof (struct seccomp_data, arch),
	    0, 0);
      /* Count the instructions of this arch's block to skip it.  */
      unsigned int n = 2;
      for (i = 0; i < NCALLS; i++)
	if (traced (&calls[i], arch))
	  {
	    if (calls[i].cmd < 0)
	      n += 2;
	    else
	      n += 2 + (group_start (i, arch) ? 3 : 0);
	  }
      emit (BPF_JMP | BPF_JEQ | BPF_K, audit_arches[arch], 0, n);
      emit (BPF_LD | BPF_W | BPF_ABS, offsetof (struct seccomp_data, nr),
	    0, 0);
      for (i = 0; i < NCALLS; i++)
	{
	  unsigned int ret = SECCOMP_RET_TRACE | (arch << 8) | i;

	  if (!traced (&calls[i], arch))
	    continue;
	  if (calls[i].cmd >= 0)
	    {
	      /* A group of entries of one call, one per cmd: load cmd
		 once, compare with each, and allow the call if none
		 matched.  The accumulator is lost after loading cmd,
		 so every outcome returns here.  Only the low word of
		 cmd (at the lower address: little-endian) matters, as
		 the kernel takes it as an unsigned int.  */
	      size_t j, k = 0;

	      if (group_start (i, arch))
		{
		  for (j = i; j < NCALLS && calls[j].nr[arch] == calls[i].nr[arch]
			 && calls[j].cmd >= 0; j++)
		    if (traced (&calls[j], arch))
		      k++;
		  emit (BPF_JMP | BPF_JEQ | BPF_K, calls[i].nr[arch], 0,
			2 * k + 2);
		  emit (BPF_LD | BPF_W | BPF_ABS,
			offsetof (struct seccomp_data, args[1]), 0, 0);
		}
	      emit (BPF_JMP | BPF_JEQ | BPF_K, calls[i].cmd, 0, 1);
	      emit (BPF_RET | BPF_K, ret, 0, 0);
	      if (i + 1 == NCALLS || !traced (&calls[i + 1], arch)
		  || calls[i + 1].nr[arch] != calls[i].nr[arch])
		emit (BPF_RET | BPF_K, allow, 0, 0);
	    }
	  else
	    {
	      emit (BPF_JMP | BPF_JEQ | BPF_K, calls[i].nr[arch], 0, 1);
	      emit (BPF_RET | BPF_K, ret, 0, 0);
	    }
	}
      emit (BPF_RET | BPF_K, allow, 0, 0);
    }
  emit (BPF_RET | BPF_K, allow, 0, 0);
}

/* The child: stop so that the parent can set the ptrace options
   before anything is traced, install the filter, run CMD.  */
static void
run_child (char **argv)
{
  struct sock_fprog fprog = { prog_len, prog };

  if (ptrace (PTRACE_TRACEME, 0, NULL, NULL) < 0 || raise (SIGSTOP) != 0)
    {
      perror ("kemu: ptrace");
      _exit (2);
    }
  /* Required to install a filter without CAP_SYS_ADMIN; also keeps
     set-user-ID programs from running unsupervised.  */
  if (prctl (PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0
      || prctl (PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &fprog, 0, 0) < 0)
    {
      perror ("kemu: seccomp");
      _exit (2);
    }
  execvp (argv[0], argv);
  fprintf (stderr, "kemu: %s: %s\n", argv[0], strerror (errno));
  /* As a shell does.  */
  _exit (errno == ENOENT ? 127 : 126);
}

/* Where argument IDX of a system call is in the registers; a 32-bit
   tracee's registers appear zero-extended in the 64-bit layout.  */
static unsigned long long *
arg_reg (struct user_regs_struct *r, int arch, int idx)
{
  static const size_t off[2][6] =
  {
    { offsetof (struct user_regs_struct, rdi),
      offsetof (struct user_regs_struct, rsi),
      offsetof (struct user_regs_struct, rdx),
      offsetof (struct user_regs_struct, r10),
      offsetof (struct user_regs_struct, r8),
      offsetof (struct user_regs_struct, r9) },
    { offsetof (struct user_regs_struct, rbx),
      offsetof (struct user_regs_struct, rcx),
      offsetof (struct user_regs_struct, rdx),
      offsetof (struct user_regs_struct, rsi),
      offsetof (struct user_regs_struct, rdi),
      offsetof (struct user_regs_struct, rbp) },
  };

  return (unsigned long long *) ((char *) r + off[arch][idx]);
}

/* F_GETFL of a kernel before 4.13 (getfl_keeps_unknown): the bits
   an open ignored stay in the file's flags.  The real kernel strips
   them, so kemu remembers, per process (thread group) and descriptor,
   the bits it cleared and the file (device and inode, so that a
   descriptor number reused for another file is not mistaken for it),
   and adds them to the result of F_GETFL.  Descriptors are inherited
   across fork; one made by dup or another call keeps no bits.  */
struct kept
{
  pid_t tgid;
  int fd;
  dev_t dev;
  ino_t ino;
  unsigned int bits;
};
static struct kept *kept;
static size_t nkept, kept_size;

/* A tracee stopped at a call whose result kemu must see: the open
   calls whose bits it cleared (to record the descriptor), F_GETFL (to
   add the kept bits).  The next syscall-exit-stop of PID is that
   call's.  */
struct pending
{
  pid_t pid;
  int arch;
  int getfl;			/* 1: F_GETFL of fd ARG; 0: an open.  */
  unsigned int arg;		/* The fd, or the bits cleared.  */
};
static struct pending *pending;
static size_t npending, pending_size;

static void *
grow (void *p, size_t *size, size_t n, size_t elt)
{
  if (n < *size)
    return p;
  *size = *size ? 2 * *size : 16;
  p = realloc (p, *size * elt);
  if (p == NULL)
    {
      perror ("kemu");
      exit (2);
    }
  return p;
}

static pid_t
tgid_of (pid_t pid)
{
  char path[64], line[256];
  FILE *f;
  pid_t tgid = pid;

  snprintf (path, sizeof path, "/proc/%d/status", (int) pid);
  f = fopen (path, "re");
  if (f == NULL)
    return pid;
  while (fgets (line, sizeof line, f) != NULL)
    if (sscanf (line, "Tgid: %d", &tgid) == 1)
      break;
  fclose (f);
  return tgid;
}

/* The file of descriptor FD of process PID.  */
static int
fd_file (pid_t pid, int fd, struct stat *st)
{
  char path[64];

  snprintf (path, sizeof path, "/proc/%d/fd/%d", (int) pid, fd);
  return stat (path, st);
}

static struct kept *
find_kept (pid_t tgid, int fd)
{
  size_t i;

  for (i = 0; i < nkept; i++)
    if (kept[i].tgid == tgid && kept[i].fd == fd)
      return &kept[i];
  return NULL;
}

static void
set_kept (pid_t tgid, int fd, dev_t dev, ino_t ino, unsigned int bits)
{
  struct kept *k = find_kept (tgid, fd);

  if (k == NULL)
    {
      kept = grow (kept, &kept_size, nkept, sizeof *kept);
      k = &kept[nkept++];
    }
  *k = (struct kept) { tgid, fd, dev, ino, bits };
}

/* A new process PID (from fork, vfork or clone) of PARENT: if it has
   a descriptor table of its own, it starts as a copy.  */
static void
inherit_kept (pid_t parent, pid_t pid)
{
  pid_t from = tgid_of (parent), to = tgid_of (pid);
  size_t i, n = nkept;

  if (from == to)
    return;
  for (i = 0; i < n; i++)
    if (kept[i].tgid == from)
      set_kept (to, kept[i].fd, kept[i].dev, kept[i].ino, kept[i].bits);
}

static void
add_pending (pid_t pid, int arch, int getfl, unsigned int arg)
{
  pending = grow (pending, &pending_size, npending, sizeof *pending);
  pending[npending++] = (struct pending) { pid, arch, getfl, arg };
}

/* A syscall-exit-stop of PID: finish what its seccomp stop began.  */
static void
handle_exit (pid_t pid)
{
  struct user_regs_struct regs;
  struct pending p;
  struct stat st;
  size_t i;
  long ret;

  for (i = 0; i < npending && pending[i].pid != pid; i++)
    ;
  if (i == npending)
    return;
  p = pending[i];
  pending[i] = pending[--npending];
  if (ptrace (PTRACE_GETREGS, pid, NULL, &regs) < 0)
    return;
  /* A 32-bit tracee's result is in eax.  */
  ret = p.arch == ARCH_I386 ? (long) (int) regs.rax : (long) regs.rax;
  if (ret < 0)
    return;
  if (!p.getfl)
    {
      if (fd_file (pid, ret, &st) == 0)
	set_kept (tgid_of (pid), ret, st.st_dev, st.st_ino, p.arg);
      return;
    }
  struct kept *k = find_kept (tgid_of (pid), p.arg);
  if (k == NULL || k->bits == 0 || fd_file (pid, p.arg, &st) != 0
      || st.st_dev != k->dev || st.st_ino != k->ino)
    return;
  regs.rax = (unsigned long long) (unsigned int) (ret | k->bits);
  if (ptrace (PTRACE_SETREGS, pid, NULL, &regs) < 0)
    return;
  if (logfp && log_all)
    fprintf (logfp, "%d %s F_GETFL %#lo %#lo\n", pid, arch_names[p.arch],
	     ret, (long) (ret | k->bits));
}

/* A seccomp stop: the call has not reached the kernel proper yet.
   Return 1 if kemu must see the call's result (resume it with
   PTRACE_SYSCALL: its next stop is the syscall-exit-stop).  */
static int
handle_seccomp (pid_t pid)
{
  unsigned long data;
  struct user_regs_struct regs;
  const struct call *c;
  int arch;

  if (ptrace (PTRACE_GETEVENTMSG, pid, NULL, &data) < 0
      || ptrace (PTRACE_GETREGS, pid, NULL, &regs) < 0)
    return 0;			/* Killed meanwhile.  */
  arch = (data >> 8) & 1;
  c = &calls[(data & 0xff) % NCALLS];

  if (c->flags_arg == ARG_GETFL)
    {
      add_pending (pid, arch, 1, *arg_reg (&regs, arch, 0));
      return 1;
    }
  if (c->flags_arg == ARG_HOW)
    {
      /* The flags are the first field of struct open_how, 64 bits on
	 every ABI; the upper half holds the flags open cannot pass
	 (OPENAT2_*).  */
      unsigned long long how = *arg_reg (&regs, arch, 2);
      long flags;
      int peeked;

      errno = 0;
      flags = ptrace (PTRACE_PEEKDATA, pid, (void *) how, NULL);
      peeked = errno == 0;
      if (kernel->has_openat2)
	{
	  /* Passed as it is: the flags before and after are the same.  */
	  if (logfp && log_all && peeked)
	    fprintf (logfp, "%d %s %s %#lo %#lo\n", pid, arch_names[arch],
		     c->name, (unsigned long) flags, (unsigned long) flags);
	  return 0;
	}
      /* Syscall number -1 makes the kernel skip the call and return
	 what is in rax.  */
      regs.orig_rax = -1;
      regs.rax = -ENOSYS;
      if (ptrace (PTRACE_SETREGS, pid, NULL, &regs) < 0)
	return 0;
      if (logfp)
	{
	  if (!peeked)
	    fprintf (logfp, "%d %s %s ? ENOSYS\n", pid, arch_names[arch],
		     c->name);
	  else
	    fprintf (logfp, "%d %s %s %#lo ENOSYS\n", pid, arch_names[arch],
		     c->name, (unsigned long) flags);
	}
      return 0;
    }

  unsigned long long *reg = arg_reg (&regs, arch, c->flags_arg);
  /* The kernel reads the flags as a 32-bit int; bits it ignores in
     the upper half stay as they are.  */
  unsigned int before = *reg;
  unsigned int dropped = before & ~kernel->known;

  if (dropped == 0)
    {
      if (logfp && log_all)
	fprintf (logfp, "%d %s %s %#o %#o\n", pid, arch_names[arch],
		 c->name, before, before);
      /* A descriptor number that an open reuses keeps no bits.  */
      if (kernel->getfl_keeps_unknown && c->cmd < 0)
	{
	  add_pending (pid, arch, 0, 0);
	  return 1;
	}
      return 0;
    }
  *reg &= ~(unsigned long long) dropped;
  if (ptrace (PTRACE_SETREGS, pid, NULL, &regs) < 0)
    return 0;
  if (logfp)
    fprintf (logfp, "%d %s %s %#o %#o\n", pid, arch_names[arch], c->name,
	     before, before & ~dropped);
  if (kernel->getfl_keeps_unknown && c->cmd < 0)
    {
      add_pending (pid, arch, 0, dropped);
      return 1;
    }
  return 0;
}

/* Tracees whose first stop (the SIGSTOP of PTRACE_TRACEME or of an
   auto-attached child) has been seen.  A new tracee's stop may come
   before or after its parent's fork event, so kemu does not rely on
   the event to know it.  */
static pid_t *seen;
static size_t nseen, seen_size;

static int
seen_index (pid_t pid)
{
  size_t i;

  for (i = 0; i < nseen; i++)
    if (seen[i] == pid)
      return i;
  return -1;
}

static void
forget (pid_t pid)
{
  int i = seen_index (pid);

  if (i >= 0)
    seen[i] = seen[--nseen];
}

/* Return 1 if this is PID's first stop.  */
static int
first_stop (pid_t pid)
{
  if (seen_index (pid) >= 0)
    return 0;
  if (nseen == seen_size)
    {
      seen_size = seen_size ? 2 * seen_size : 16;
      seen = realloc (seen, seen_size * sizeof *seen);
      if (seen == NULL)
	{
	  perror ("kemu");
	  exit (2);
	}
    }
  seen[nseen++] = pid;
  return 1;
}

/* Trace until no tracee is left; return the exit status for kemu.  */
static int
trace (pid_t child)
{
  int result = 2;
  int status;
  pid_t pid;

  while ((pid = waitpid (-1, &status, __WALL)) != (pid_t) -1
	 || errno == EINTR)
    {
      int sig = 0;

      if (pid == (pid_t) -1)
	continue;
      if (WIFEXITED (status) || WIFSIGNALED (status))
	{
	  if (pid == child)
	    result = (WIFEXITED (status) ? WEXITSTATUS (status)
		      : 128 + WTERMSIG (status));
	  forget (pid);
	  continue;
	}
      if (!WIFSTOPPED (status))
	continue;

      if (first_stop (pid) && WSTOPSIG (status) == SIGSTOP)
	{
	  /* Without PTRACE_O_TRACESECCOMP, the filter's RET_TRACE
	     would fail every traced call with ENOSYS.  */
	  if (pid == child
	      && ptrace (PTRACE_SETOPTIONS, pid, NULL,
			 (void *) (PTRACE_O_TRACESECCOMP | PTRACE_O_TRACEFORK
				   | PTRACE_O_TRACEVFORK | PTRACE_O_TRACECLONE
				   | PTRACE_O_TRACEEXEC | PTRACE_O_TRACESYSGOOD
				   | PTRACE_O_EXITKILL)) < 0)
	    {
	      perror ("kemu: PTRACE_SETOPTIONS");
	      kill (child, SIGKILL);
	    }
	  /* Auto-attached tracees inherit the options.  */
	}
      else if (status >> 16 == PTRACE_EVENT_SECCOMP)
	{
	  if (handle_seccomp (pid))
	    {
	      ptrace (PTRACE_SYSCALL, pid, NULL, NULL);
	      continue;
	    }
	}
      else if (WSTOPSIG (status) == (SIGTRAP | 0x80))
	handle_exit (pid);	/* Only after PTRACE_SYSCALL above.  */
      else if (status >> 16 == PTRACE_EVENT_EXEC)
	{
	  /* A non-leader thread that calls execve takes over the
	     leader's pid; its old tid is gone without an exit.  */
	  unsigned long old;

	  if (ptrace (PTRACE_GETEVENTMSG, pid, NULL, &old) == 0
	      && (pid_t) old != pid)
	    forget (old);
	}
      else if (status >> 16 == PTRACE_EVENT_FORK
	       || status >> 16 == PTRACE_EVENT_VFORK
	       || status >> 16 == PTRACE_EVENT_CLONE)
	{
	  unsigned long new;

	  if (nkept && ptrace (PTRACE_GETEVENTMSG, pid, NULL, &new) == 0)
	    inherit_kept (pid, new);
	}
      else if (status >> 16 != 0)
	;			/* Other events: nothing to do.  */
      else
	{
	  siginfo_t si;

	  /* A signal-delivery stop, to pass on; or a group-stop, which
	     PTRACE_GETSIGINFO refuses and which must not be
	     injected.  */
	  sig = WSTOPSIG (status);
	  if (ptrace (PTRACE_GETSIGINFO, pid, NULL, &si) < 0
	      && errno == EINVAL)
	    sig = 0;
	}
      ptrace (PTRACE_CONT, pid, NULL, (void *) (long) sig);
    }
  if (errno != ECHILD)
    perror ("kemu: waitpid");
  return result;
}

int
main (int argc, char **argv)
{
  static const struct option options[] =
  {
    { "kernel", required_argument, NULL, 'k' },
    { "log", required_argument, NULL, 'l' },
    { "log-all", no_argument, NULL, 'a' },
    { "help", no_argument, NULL, 'h' },
    { NULL, 0, NULL, 0 }
  };
  const char *version = NULL, *logname = NULL;
  size_t i;
  pid_t child;
  int c;

  while ((c = getopt_long (argc, argv, "+k:l:ah", options, NULL)) != -1)
    switch (c)
      {
      case 'a':
	log_all = 1;
	break;
      case 'k':
	version = optarg;
	break;
      case 'l':
	logname = optarg;
	break;
      case 'h':
	usage (stdout);
	return 0;
      default:
	usage (stderr);
	return 2;
      }
  if (version == NULL || optind == argc)
    {
      fprintf (stderr, "kemu: %s\n",
	       version == NULL ? "no --kernel given" : "no command given");
      usage (stderr);
      return 2;
    }
  for (i = 0; i < NKERNELS; i++)
    if (strcmp (kernels[i].name, version) == 0)
      kernel = &kernels[i];
  if (kernel == NULL)
    {
      fprintf (stderr, "kemu: unknown kernel version '%s'\n", version);
      usage (stderr);
      return 2;
    }
  if (logname != NULL)
    {
      /* Close-on-exec: the tracee must not inherit it.  */
      logfp = fopen (logname, "we");
      if (logfp == NULL)
	{
	  fprintf (stderr, "kemu: %s: %s\n", logname, strerror (errno));
	  return 2;
	}
      /* Lines survive kemu being killed.  */
      setvbuf (logfp, NULL, _IOLBF, 0);
    }

  build_filter ();
  fflush (NULL);
  child = fork ();
  if (child < 0)
    {
      perror ("kemu: fork");
      return 2;
    }
  if (child == 0)
    run_child (argv + optind);
  return trace (child);
}
