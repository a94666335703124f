/* A planted bug for the PostgreSQL power cuts (driver/suites.sh
   postgres): a preloaded library whose open functions drop O_DSYNC and
   O_SYNC, as a C library's open wrapper that lost the flags would.
   pg-record.sh runs the server under it once, with
   wal_sync_method=open_datasync ("open_datasync_dropped"); that run
   must lose acknowledged commits, or the check could not see the very
   bug class it is there for.
   Copyright (C) 2026 The osync-glibc authors.  GPL-2.0-or-later.  */
#define _GNU_SOURCE 1
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <sys/types.h>

#define DROP(flags) ((flags) & ~(O_DSYNC | O_SYNC))

#define WRAP(name, params, args)                                        \
  int name params                                                       \
  {                                                                     \
    static int (*real) ();                                              \
    mode_t mode = 0;                                                    \
    if (flags & (O_CREAT | O_TMPFILE))                                  \
      {                                                                 \
        va_list ap;                                                     \
        va_start (ap, flags);                                           \
        mode = va_arg (ap, mode_t);                                     \
        va_end (ap);                                                    \
      }                                                                 \
    if (real == NULL)                                                   \
      real = (int (*) ()) dlsym (RTLD_NEXT, #name);                     \
    return real args;                                                   \
  }

WRAP (open, (const char *path, int flags, ...), (path, DROP (flags), mode))
WRAP (open64, (const char *path, int flags, ...), (path, DROP (flags), mode))
WRAP (openat, (int dir, const char *path, int flags, ...),
      (dir, path, DROP (flags), mode))
WRAP (openat64, (int dir, const char *path, int flags, ...),
      (dir, path, DROP (flags), mode))
