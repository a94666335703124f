/* Probe of the O_SYNC / O_DSYNC / O_RSYNC split for one glibc Linux port.

   This file is compiled, never run: the ports are cross targets.  lib.sh
   (ports_probe) compiles it with the port's compiler in one of three
   modes, each a translation unit of its own, because glibc's <fcntl.h>
   and the kernel's <linux/fcntl.h> / <asm/fcntl.h> cannot share one:

   PROBE_GLIBC        includes the patched glibc <fcntl.h> (_GNU_SOURCE).
   PROBE_GLIBC_POSIX  the same header in strict POSIX mode.
   PROBE_KERNEL       includes the port's kernel <asm/fcntl.h>.

   Without PROBE_CHECK a mode only reports constants: every value goes
   into the assembler output (compile with -S) as a comment of the form
   "@@@NAME@@@VALUE@@@", which the caller greps for.  With PROBE_CHECK
   the mode checks the constants with _Static_assert, so a wrong value
   stops the compilation with a message naming the port and the
   constant; it also reports how many checks it compiled ("checks"), so
   the caller can tell a real pass from a vacuous one.

   Macros the caller passes:
   PROBE_PORT        string literal naming the port, e.g. "mips-o32".
   PROBE_FLAGS_FILE  string literal naming a file of PROBE_FLAG (NAME)
                     lines: the open flags that __O_RSYNC must not
                     overlap (PROBE_GLIBC and PROBE_KERNEL checks).
   G_O_DSYNC, G_O_FULLSYNC, G_O_SYNC, G_O_RSYNC
                     glibc's values, for the checks of PROBE_KERNEL and
                     PROBE_GLIBC_POSIX.  */

#if defined PROBE_GLIBC || defined PROBE_GLIBC_POSIX
# include <fcntl.h>
#elif defined PROBE_KERNEL
# include <asm/fcntl.h>
#else
# error "define one of PROBE_GLIBC, PROBE_GLIBC_POSIX, PROBE_KERNEL"
#endif

#ifndef PROBE_PORT
# define PROBE_PORT "unknown-port"
#endif

#define PROBE_CAT_(a, b) a##b
#define PROBE_CAT(a, b) PROBE_CAT_ (a, b)

#ifdef PROBE_CHECK
/* Each check uses __COUNTER__ once, so its final value is the number of
   checks compiled.  */
# define PROBE_ASSERT(cond, msg)					\
  _Static_assert (cond, PROBE_PORT ": " msg);				\
  extern int PROBE_CAT (probe_check_, __COUNTER__)
/* A missing macro is a failed check of its own; the placeholder lets
   the other checks still be compiled and reported.  */
# define PROBE_MISSING(what)						\
  PROBE_ASSERT (0, what " is not defined")
#endif

/* Put VALUE into the assembler output.  The "i" constraint makes the
   compiler print the constant itself; nothing has to run.  */
#define PROBE_EMIT(name, value)						\
  __asm__ volatile ("/* @@@" name "@@@%0@@@ */" : : "i" ((long) (value)))

#define PROBE_U(x) ((unsigned long long) (x))

/* ------------------------------------------------------------------ */
#ifdef PROBE_GLIBC

# ifdef PROBE_CHECK
#  ifndef O_DSYNC
PROBE_MISSING ("<fcntl.h> O_DSYNC");
#   define O_DSYNC 0
#  endif
#  ifndef __O_DSYNC
PROBE_MISSING ("<fcntl.h> __O_DSYNC");
#   define __O_DSYNC 0
#  endif
#  ifndef __O_FULLSYNC
PROBE_MISSING ("<fcntl.h> __O_FULLSYNC");
#   define __O_FULLSYNC 0
#  endif
#  ifndef O_SYNC
PROBE_MISSING ("<fcntl.h> O_SYNC");
#   define O_SYNC 0
#  endif
#  ifndef O_FSYNC
PROBE_MISSING ("<fcntl.h> O_FSYNC");
#   define O_FSYNC 0
#  endif
#  ifndef __O_RSYNC
PROBE_MISSING ("<fcntl.h> __O_RSYNC");
#   define __O_RSYNC 0
#  endif
#  ifndef O_RSYNC
PROBE_MISSING ("<fcntl.h> O_RSYNC");
#   define O_RSYNC 0
#  endif

/* O_SYNC is built from the two bits, and O_DSYNC is glibc's __O_DSYNC.  */
PROBE_ASSERT (O_SYNC == (__O_FULLSYNC | O_DSYNC),
	      "O_SYNC != (__O_FULLSYNC | O_DSYNC)");
PROBE_ASSERT (O_DSYNC == __O_DSYNC, "O_DSYNC != __O_DSYNC");
PROBE_ASSERT (O_FSYNC == O_SYNC, "O_FSYNC != O_SYNC");
PROBE_ASSERT (O_SYNC != O_DSYNC,
	      "O_SYNC == O_DSYNC (__O_FULLSYNC adds no bit of its own)");

/* __O_RSYNC: one bit, a positive int, clear of the bits the kernel
   keeps in f_flags for itself.  */
PROBE_ASSERT (__O_RSYNC > 0 && PROBE_U (__O_RSYNC) < 0x80000000ULL,
	      "__O_RSYNC is not positive (zero, negative or the sign bit)");
PROBE_ASSERT (PROBE_U (__O_RSYNC) != 0
	      && (PROBE_U (__O_RSYNC) & (PROBE_U (__O_RSYNC) - 1)) == 0,
	      "__O_RSYNC is not a single bit");
PROBE_ASSERT ((PROBE_U (__O_RSYNC) & 0x20) == 0,
	      "__O_RSYNC overlaps the kernel-internal bit 0x20 (__FMODE_EXEC)");
PROBE_ASSERT ((PROBE_U (__O_RSYNC) & 0x4000000) == 0,
	      "__O_RSYNC overlaps the kernel-internal bit 0x4000000"
	      " (was __FMODE_NONOTIFY)");

/* O_RSYNC is its own flag, no longer an alias of O_SYNC, and the four
   combinations a program can ask for are all different.  */
PROBE_ASSERT (O_RSYNC == __O_RSYNC, "O_RSYNC != __O_RSYNC");
PROBE_ASSERT (O_RSYNC != O_SYNC, "O_RSYNC == O_SYNC (still an alias)");
PROBE_ASSERT ((O_RSYNC | O_DSYNC) != (O_RSYNC | O_SYNC),
	      "O_RSYNC|O_DSYNC == O_RSYNC|O_SYNC");
PROBE_ASSERT ((O_RSYNC | O_DSYNC) != O_DSYNC, "O_RSYNC|O_DSYNC == O_DSYNC");
PROBE_ASSERT ((O_RSYNC | O_DSYNC) != O_SYNC, "O_RSYNC|O_DSYNC == O_SYNC");
PROBE_ASSERT ((O_RSYNC | O_SYNC) != O_DSYNC, "O_RSYNC|O_SYNC == O_DSYNC");
PROBE_ASSERT ((O_RSYNC | O_SYNC) != O_SYNC, "O_RSYNC|O_SYNC == O_SYNC");

/* Every macro glibc 2.36 installed stays: hppa's __O_SYNC, now a name
   of __O_FULLSYNC (hppa's O_SYNC before glibc 2.12).  */
#  ifdef __hppa__
#   ifdef __O_SYNC
PROBE_ASSERT (__O_SYNC == __O_FULLSYNC, "__O_SYNC != __O_FULLSYNC");
#   else
PROBE_MISSING ("__O_SYNC (installed by glibc 2.36)");
#   endif
#  endif

/* glibc's own open flags (collected by the caller from -dM output).  */
#  ifdef PROBE_FLAGS_FILE
#   define PROBE_FLAG(name)						\
  PROBE_ASSERT ((PROBE_U (__O_RSYNC) & PROBE_U (name)) == 0,		\
		"__O_RSYNC overlaps glibc " #name)
#   include PROBE_FLAGS_FILE
#   undef PROBE_FLAG
#  endif
# endif /* PROBE_CHECK */

void
probe_values (void)
{
# ifdef PROBE_CHECK
  PROBE_EMIT ("checks", __COUNTER__);
# else
  PROBE_EMIT ("O_DSYNC", O_DSYNC);
  PROBE_EMIT ("__O_DSYNC", __O_DSYNC);
  PROBE_EMIT ("__O_FULLSYNC", __O_FULLSYNC);
  PROBE_EMIT ("O_SYNC", O_SYNC);
  PROBE_EMIT ("O_RSYNC", O_RSYNC);
  PROBE_EMIT ("__O_RSYNC", __O_RSYNC);
# endif
}

#endif /* PROBE_GLIBC */

/* ------------------------------------------------------------------ */
#ifdef PROBE_GLIBC_POSIX
/* POSIX (Synchronized Input and Output) asks for the three names in
   <fcntl.h>; they must be there, with the same values, without
   _GNU_SOURCE.  */
# ifndef PROBE_CHECK
#  error "PROBE_GLIBC_POSIX is a check mode; define PROBE_CHECK"
# endif
# ifdef O_DSYNC
PROBE_ASSERT (O_DSYNC == G_O_DSYNC, "O_DSYNC differs in strict POSIX mode");
# else
PROBE_MISSING ("O_DSYNC in strict POSIX mode");
# endif
# ifdef O_SYNC
PROBE_ASSERT (O_SYNC == G_O_SYNC, "O_SYNC differs in strict POSIX mode");
# else
PROBE_MISSING ("O_SYNC in strict POSIX mode");
# endif
# ifdef O_RSYNC
PROBE_ASSERT (O_RSYNC == G_O_RSYNC, "O_RSYNC differs in strict POSIX mode");
# else
PROBE_MISSING ("O_RSYNC in strict POSIX mode");
# endif

void
probe_values (void)
{
  PROBE_EMIT ("checks", __COUNTER__);
}
#endif /* PROBE_GLIBC_POSIX */

/* ------------------------------------------------------------------ */
#ifdef PROBE_KERNEL

# ifdef PROBE_CHECK
#  ifndef O_DSYNC
PROBE_MISSING ("kernel O_DSYNC");
#   define O_DSYNC 0
#  endif
#  ifndef __O_SYNC
PROBE_MISSING ("kernel __O_SYNC");
#   define __O_SYNC 0
#  endif
#  ifndef O_SYNC
PROBE_MISSING ("kernel O_SYNC");
#   define O_SYNC 0
#  endif

PROBE_ASSERT (PROBE_U (O_DSYNC) == PROBE_U (G_O_DSYNC),
	      "O_DSYNC != kernel O_DSYNC");
PROBE_ASSERT (PROBE_U (__O_SYNC) == PROBE_U (G_O_FULLSYNC),
	      "__O_FULLSYNC != kernel __O_SYNC");
PROBE_ASSERT (PROBE_U (O_SYNC) == PROBE_U (G_O_SYNC),
	      "O_SYNC != kernel O_SYNC");

/* Every O_*, __O_* and FASYNC macro of <asm/fcntl.h>.  */
#  ifdef PROBE_FLAGS_FILE
#   define PROBE_FLAG(name)						\
  PROBE_ASSERT ((PROBE_U (G_O_RSYNC) & PROBE_U (name)) == 0,		\
		"__O_RSYNC overlaps kernel " #name)
#   include PROBE_FLAGS_FILE
#   undef PROBE_FLAG
#  endif
# endif /* PROBE_CHECK */

void
probe_values (void)
{
# ifdef PROBE_CHECK
  PROBE_EMIT ("checks", __COUNTER__);
# else
  PROBE_EMIT ("O_DSYNC", O_DSYNC);
  PROBE_EMIT ("__O_SYNC", __O_SYNC);
  PROBE_EMIT ("O_SYNC", O_SYNC);
# endif
}

#endif /* PROBE_KERNEL */
