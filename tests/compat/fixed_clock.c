/* fixed_clock.c - an LD_PRELOAD shim that stops the wall clock at
 * E2L_FIXED_TIME (default 1700000000) for time(2), gettimeofday(2) and
 * clock_gettime(CLOCK_REALTIME): the suite's call-by-call comparison runs
 * the real debugfs and e2layout on it, so that the times both stamp into
 * an image (inode times, s_wtime, jbd2 commit blocks) agree and the images
 * can be compared byte for byte.  Other clocks run as usual. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <sys/time.h>
#include <time.h>

static time_t fixed_now(void)
{
	const char *e = getenv("E2L_FIXED_TIME");

	return e ? (time_t)strtoll(e, NULL, 0) : (time_t)1700000000;
}

time_t time(time_t *t)
{
	time_t now = fixed_now();

	if (t)
		*t = now;
	return now;
}

int gettimeofday(struct timeval *restrict tv, void *restrict tz)
{
	(void)tz;
	if (tv) {
		tv->tv_sec = fixed_now();
		tv->tv_usec = 0;
	}
	return 0;
}

int clock_gettime(clockid_t id, struct timespec *ts)
{
	static int (*real)(clockid_t, struct timespec *);

	if (id == CLOCK_REALTIME || id == CLOCK_REALTIME_COARSE) {
		ts->tv_sec = fixed_now();
		ts->tv_nsec = 0;
		return 0;
	}
	if (!real)
		real = (int (*)(clockid_t, struct timespec *))
			dlsym(RTLD_NEXT, "clock_gettime");
	return real ? real(id, ts) : -1;
}
