/* A minimal io_uring for the test and benchmark programs: the raw
   system calls (io_uring_setup, io_uring_enter) and the rings mapped
   by hand, no liburing.  One ring, one request or one linked pair at a
   time, waited for before the next.
   Copyright (C) 2026 The osync-glibc authors.  GPL-2.0-or-later.  */

#ifndef OSYNC_URING_H
#define OSYNC_URING_H

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/io_uring.h>

struct uring
{
  int fd;
  unsigned int *sq_head, *sq_tail, *sq_mask, *sq_array;
  unsigned int *cq_head, *cq_tail, *cq_mask;
  struct io_uring_sqe *sqes;
  struct io_uring_cqe *cqes;
};

/* Set up U with ENTRIES entries and the IORING_SETUP_* FLAGS (for
   instance IORING_SETUP_IOPOLL).  0, or -1 with errno set.  */
static inline int
uring_init (struct uring *u, unsigned int entries, unsigned int flags)
{
  struct io_uring_params p;
  memset (&p, 0, sizeof p);
  p.flags = flags;
  u->fd = syscall (SYS_io_uring_setup, entries, &p);
  if (u->fd < 0)
    return -1;
  size_t sq_len = p.sq_off.array + p.sq_entries * sizeof (unsigned int);
  size_t cq_len = p.cq_off.cqes + p.cq_entries * sizeof (struct io_uring_cqe);
  if (p.features & IORING_FEAT_SINGLE_MMAP && cq_len > sq_len)
    sq_len = cq_len;
  char *sq = mmap (NULL, sq_len, PROT_READ | PROT_WRITE,
                   MAP_SHARED | MAP_POPULATE, u->fd, IORING_OFF_SQ_RING);
  if (sq == MAP_FAILED)
    return -1;
  char *cq = sq;
  if (!(p.features & IORING_FEAT_SINGLE_MMAP))
    {
      cq = mmap (NULL, cq_len, PROT_READ | PROT_WRITE,
                 MAP_SHARED | MAP_POPULATE, u->fd, IORING_OFF_CQ_RING);
      if (cq == MAP_FAILED)
        return -1;
    }
  u->sqes = mmap (NULL, p.sq_entries * sizeof (struct io_uring_sqe),
                  PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE,
                  u->fd, IORING_OFF_SQES);
  if (u->sqes == MAP_FAILED)
    return -1;
  u->sq_head = (unsigned int *) (sq + p.sq_off.head);
  u->sq_tail = (unsigned int *) (sq + p.sq_off.tail);
  u->sq_mask = (unsigned int *) (sq + p.sq_off.ring_mask);
  u->sq_array = (unsigned int *) (sq + p.sq_off.array);
  u->cq_head = (unsigned int *) (cq + p.cq_off.head);
  u->cq_tail = (unsigned int *) (cq + p.cq_off.tail);
  u->cq_mask = (unsigned int *) (cq + p.cq_off.ring_mask);
  u->cqes = (struct io_uring_cqe *) (cq + p.cq_off.cqes);
  return 0;
}

/* The next free submission entry, cleared; queued by uring_submit.  */
static inline struct io_uring_sqe *
uring_sqe (struct uring *u, unsigned int *pending)
{
  unsigned int tail = *u->sq_tail + *pending;
  unsigned int i = tail & *u->sq_mask;
  struct io_uring_sqe *sqe = &u->sqes[i];
  memset (sqe, 0, sizeof *sqe);
  u->sq_array[i] = i;
  ++*pending;
  return sqe;
}

/* Submit the N entries taken with uring_sqe and wait for their N
   completions; RES[k] is the result of the k-th (by user_data).  0, or
   -1 with errno set if io_uring_enter failed.  */
static inline int
uring_submit (struct uring *u, unsigned int n, int *res)
{
  __atomic_store_n (u->sq_tail, *u->sq_tail + n, __ATOMIC_RELEASE);
  unsigned int done = 0;
  unsigned int submit = n;
  while (done < n)
    {
      int r = syscall (SYS_io_uring_enter, u->fd, submit, n - done,
                       IORING_ENTER_GETEVENTS, NULL, 0);
      if (r < 0)
        {
          if (errno == EINTR)
            continue;
          return -1;
        }
      submit -= (unsigned int) r < submit ? (unsigned int) r : submit;
      unsigned int head = *u->cq_head;
      while (head != __atomic_load_n (u->cq_tail, __ATOMIC_ACQUIRE))
        {
          struct io_uring_cqe *cqe = &u->cqes[head & *u->cq_mask];
          if (cqe->user_data < n)
            res[cqe->user_data] = cqe->res;
          head++;
          done++;
        }
      __atomic_store_n (u->cq_head, head, __ATOMIC_RELEASE);
    }
  return 0;
}

/* Read LEN bytes at OFF of FD into BUF through IORING_OP_READ with
   the RWF_* flags RW_FLAGS; the result of the read (bytes or -errno),
   or -errno of io_uring_enter.  */
static inline int
uring_read (struct uring *u, int fd, void *buf, unsigned int len,
            uint64_t off, unsigned int rw_flags)
{
  unsigned int pending = 0;
  struct io_uring_sqe *sqe = uring_sqe (u, &pending);
  sqe->opcode = IORING_OP_READ;
  sqe->fd = fd;
  sqe->addr = (uintptr_t) buf;
  sqe->len = len;
  sqe->off = off;
  sqe->rw_flags = rw_flags;
  sqe->user_data = 0;
  int res[1] = { 0 };
  if (uring_submit (u, pending, res) != 0)
    return -errno;
  return res[0];
}

/* A ranged fdatasync linked to a read, the user-space way to a
   synchronized read: IORING_OP_FSYNC with IORING_FSYNC_DATASYNC over
   LEN bytes at OFF (vfs_fsync_range), then, if it succeeded, the read
   of those bytes into BUF.  The read's result, or the fsync's error.  */
static inline int
uring_fsync_read (struct uring *u, int fd, void *buf, unsigned int len,
                  uint64_t off)
{
  unsigned int pending = 0;
  struct io_uring_sqe *sqe = uring_sqe (u, &pending);
  sqe->opcode = IORING_OP_FSYNC;
  sqe->fd = fd;
  sqe->off = off;
  sqe->len = len;
  sqe->fsync_flags = IORING_FSYNC_DATASYNC;
  sqe->flags = IOSQE_IO_LINK;
  sqe->user_data = 0;
  sqe = uring_sqe (u, &pending);
  sqe->opcode = IORING_OP_READ;
  sqe->fd = fd;
  sqe->addr = (uintptr_t) buf;
  sqe->len = len;
  sqe->off = off;
  sqe->user_data = 1;
  int res[2] = { 0, 0 };
  if (uring_submit (u, pending, res) != 0)
    return -errno;
  return res[0] < 0 ? res[0] : res[1];
}

#endif
