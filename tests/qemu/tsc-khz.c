/* Print the host's TSC frequency in kHz, measured against
   CLOCK_MONOTONIC_RAW over 200 ms, for guest.sh --fine-clock: under
   QEMU's emulation (TCG) the guest's TSC counts at the host's rate, and
   a guest kernel without ACPI (the project's own, kernel/osync.config)
   has no HPET or PM timer to calibrate it against when its PIT
   calibration fails, as it does when the host is busy; it then runs on
   the jiffies clocksource, whose 4 ms steps make every latency a
   benchmark reports meaningless.  tsc_early_khz= tells it the rate.
   Copyright (C) 2026 The osync-glibc authors.  GPL-2.0-or-later.  */

#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include <x86intrin.h>

static uint64_t
now_ns (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC_RAW, &ts);
  return (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
}

int
main (void)
{
  /* Three measurements: one that the scheduler interrupted between
     the two readings of a pair is off by the interruption, and the
     median leaves it out.  */
  double khz[3];
  for (int i = 0; i < 3; i++)
    {
      uint64_t t0 = now_ns (), c0 = __rdtsc ();
      struct timespec d = { 0, 200000000 };
      nanosleep (&d, NULL);
      uint64_t t1 = now_ns (), c1 = __rdtsc ();
      khz[i] = (double) (c1 - c0) / ((double) (t1 - t0) / 1e6);
    }
  /* Sort the three; the median is the middle one.  */
  for (int i = 0; i < 2; i++)
    for (int j = i + 1; j < 3; j++)
      if (khz[j] < khz[i])
        {
          double t = khz[i];
          khz[i] = khz[j];
          khz[j] = t;
        }
  double m = khz[1];
  if (!(m > 100000 && m < 100000000))
    {
      fprintf (stderr, "tsc-khz: measured %.0f kHz, not a TSC rate\n", m);
      return 1;
    }
  printf ("%.0f\n", m);
  return 0;
}
