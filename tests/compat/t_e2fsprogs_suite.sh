#!/bin/sh
# t_e2fsprogs_suite.sh - e2fsprogs 1.47.0's own debugfs tests (the d_, j_
# and the f_, m_, r_, t_, u_ tests that call debugfs, in
# ../shared/e2fsprogs-suite) pass with e2layout installed as debugfs: every
# test that passes with the real debugfs must pass with e2layout.  About
# 45 s on two processors (both runs); `make compat` also compares every
# debugfs call of the suite (suite_compat.sh --calls).
# e2l: serial - m_devdir copies /dev (mke2fs -d /dev), which the parallel tests change (loop devices, /dev/shm)
here=$(cd "$(dirname "$0")" && pwd)
exec sh "$here/suite_compat.sh" --tests
