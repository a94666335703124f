# Time per synchronized read against the MiB dirty elsewhere in the
# file, from bench/rsync-sweep.sh.
# gnuplot -e "datafile='PLOT.DAT'; outfile='OUT.png'" rsync-sweep.gp
# PLOT.DAT: one line per size: MiB, then the p50 in ms of the O_RSYNC
# read, the RWF_RSYNC read, io_uring ranged fsync then read, and
# fdatasync then read.
# Copyright (C) 2026 The osync-glibc authors.  GPL-2.0-or-later.

set terminal pngcairo size 900,560 font "sans,10"
set output outfile
set title "8 KiB synchronized read of a dirty range, the file dirty elsewhere\n{/*0.85 QEMU guest (TCG), Linux 6.12 with the kernel/ series, ext4 on virtio}"
set xlabel "MiB dirty elsewhere in the file"
set ylabel "median time per read (ms, log scale)"
set logscale x 2
set logscale y
set grid xtics ytics mytics
set key top left noenhanced
set pointsize 1.3
plot datafile using 1:5 with linespoints linewidth 2 pointtype 7 linecolor rgb "#d62728" title "fdatasync(), then read", \
     '' using 1:4 with linespoints linewidth 2 pointtype 9 linecolor rgb "#2ca02c" title "io_uring fsync of the 8 KiB (datasync), linked read", \
     '' using 1:3 with linespoints linewidth 2 pointtype 11 linecolor rgb "#9467bd" title "preadv2 with RWF_RSYNC", \
     '' using 1:2 with linespoints linewidth 2 pointtype 5 linecolor rgb "#1f77b4" title "O_RSYNC|O_DSYNC read"
