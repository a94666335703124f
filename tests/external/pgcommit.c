/* The client of the PostgreSQL power cuts (driver/suites.sh postgres):
   commit N transactions, one row each, and mark the dm-log-writes log
   right after each commit is acknowledged.

     pgcommit CONNINFO DMNAME LABEL N

   CONNINFO: libpq's connection string; DMNAME: the log-writes target
   (tests/crash/crashdm.c set it up); LABEL: the run's name.  The table
   t (n integer primary key) is empty when it starts.  Transaction n
   inserts the row n and commits (autocommit: the INSERT is the whole
   transaction); when PQexec returns PGRES_COMMAND_OK, the server has
   acknowledged the commit, and the log gets the mark "A:LABEL:n".  The
   marks "B:LABEL" and "E:LABEL" frame the run.  First it prints the
   server's wal_sync_method, fsync and synchronous_commit ("pgcommit:
   setting NAME VALUE"); after the commits, the open flags of the
   descriptors its server process holds on WAL segments, from
   /proc/PID/fdinfo ("pgcommit: walfd FLAGS PATH", octal, as the kernel
   shows them); last "pgcommit: ok LABEL N".  Any error
   ends it with "pgcommit: error: ..." and exit status 1.
   Copyright (C) 2026 The osync-glibc authors.  GPL-2.0-or-later.  */
#define _GNU_SOURCE 1
#include <dirent.h>
#include <stdlib.h>
#include <libpq-fe.h>
#include "dmlog.h"

static PGconn *conn;

static void
fail (const char *what, const char *detail)
{
  printf ("pgcommit: error: %s: %s\n", what, detail);
  fflush (stdout);
  if (conn != NULL)
    PQfinish (conn);
  exit (1);
}

static void
mark (const char *dm, const char *text)
{
  if (dmlog_mark (dm, text) != 0)
    fail ("mark the log (is the log-writes target there?)", strerror (errno));
}

static void
show (const char *name)
{
  char q[64];
  snprintf (q, sizeof q, "SHOW %s", name);
  PGresult *r = PQexec (conn, q);
  if (PQresultStatus (r) != PGRES_TUPLES_OK || PQntuples (r) != 1)
    fail (q, PQerrorMessage (conn));
  printf ("pgcommit: setting %s %s\n", name, PQgetvalue (r, 0, 0));
  PQclear (r);
}

/* Print the flags of process PID's descriptors on files in pg_wal.  */
static void
wal_fds (int pid)
{
  char dir[64];
  snprintf (dir, sizeof dir, "/proc/%d/fd", pid);
  DIR *d = opendir (dir);
  if (d == NULL)
    fail (dir, strerror (errno));
  struct dirent *e;
  while ((e = readdir (d)) != NULL)
    {
      char link[320], target[4096], info[320], line[256];
      snprintf (link, sizeof link, "%s/%s", dir, e->d_name);
      ssize_t len = readlink (link, target, sizeof target - 1);
      if (len < 0)
        continue;
      target[len] = '\0';
      if (strstr (target, "/pg_wal/") == NULL)
        continue;
      snprintf (info, sizeof info, "/proc/%d/fdinfo/%s", pid, e->d_name);
      FILE *f = fopen (info, "r");
      if (f == NULL)
        fail (info, strerror (errno));
      while (fgets (line, sizeof line, f) != NULL)
        if (strncmp (line, "flags:", 6) == 0)
          {
            line[strcspn (line, "\n")] = '\0';
            printf ("pgcommit: walfd %s %s\n", line + 6 + strspn (line + 6, " \t"),
                    target);
          }
      fclose (f);
    }
  closedir (d);
}

int
main (int argc, char **argv)
{
  if (argc != 5 || atoi (argv[4]) < 1)
    {
      printf ("pgcommit: error: usage: pgcommit CONNINFO DMNAME LABEL N\n");
      return 2;
    }
  const char *dm = argv[2], *label = argv[3];
  int n = atoi (argv[4]);
  conn = PQconnectdb (argv[1]);
  if (PQstatus (conn) != CONNECTION_OK)
    fail ("connect", PQerrorMessage (conn));
  show ("wal_sync_method");
  show ("fsync");
  show ("synchronous_commit");
  char text[128];
  snprintf (text, sizeof text, "B:%s", label);
  mark (dm, text);
  for (int i = 1; i <= n; i++)
    {
      char q[64];
      snprintf (q, sizeof q, "INSERT INTO t VALUES (%d)", i);
      PGresult *r = PQexec (conn, q);
      if (PQresultStatus (r) != PGRES_COMMAND_OK)
        fail (q, PQerrorMessage (conn));
      PQclear (r);
      snprintf (text, sizeof text, "A:%s:%d", label, i);
      mark (dm, text);
    }
  wal_fds (PQbackendPID (conn));
  snprintf (text, sizeof text, "E:%s", label);
  mark (dm, text);
  PQfinish (conn);
  printf ("pgcommit: ok %s %d\n", label, n);
  fflush (stdout);
  return 0;
}
