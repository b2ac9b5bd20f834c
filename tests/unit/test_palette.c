/* test_palette.c - the map's 256-colour palette stays legible: every owner
 * class and live overlay is at least a CIEDE2000 distance apart from every
 * other as seen with normal vision and simulated protanopia and
 * deuteranopia (Machado, Oliveira and Fernandes 2009, full severity), with a
 * weaker bound for tritanopia; and readable on a black and a white
 * background.  A control shows the check rejects confusable palettes. */
#include "testlib.h"
#include "palette.h"

#include <math.h>
#include <stdio.h>

#include "palette.c"

/* the smallest distance a pair must keep (CIEDE2000) */
#define MIN_DE_RG	8.0	/* normal, protanopia, deuteranopia */
#define MIN_DE_T	4.0	/* tritanopia (rare): still apart */

enum vision { V_NORMAL, V_PROTAN, V_DEUTAN, V_TRITAN, V_MAX };
static const char *const vision_name[V_MAX] = {
	"normal", "protanopia", "deuteranopia", "tritanopia"
};

/* Machado et al. 2009, severity 1.0, on linear RGB. */
static const double cvd[V_MAX][3][3] = {
	[V_NORMAL] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}},
	[V_PROTAN] = {{0.152286, 1.052583, -0.204868},
		      {0.114503, 0.786281, 0.099216},
		      {-0.003882, -0.048116, 1.051998}},
	[V_DEUTAN] = {{0.367322, 0.860646, -0.227968},
		      {0.280085, 0.672501, 0.047413},
		      {-0.011820, 0.042940, 0.968881}},
	[V_TRITAN] = {{1.255528, -0.076749, -0.178779},
		      {-0.078411, 0.930809, 0.147602},
		      {0.004733, 0.691367, 0.303900}},
};

static double to_linear(unsigned char c)
{
	double v = c / 255.0;

	return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4);
}

static double lab_f(double t)
{
	return t > 0.008856 ? cbrt(t) : 7.787 * t + 16.0 / 116;
}

/* CIELAB (D65) of xterm colour idx as seen with vision v. */
static void xterm_lab(int idx, enum vision v, double lab[3])
{
	unsigned char rgb[3];
	double l[3], s[3], x, y, z;
	int i;

	pal_xterm_rgb(idx, rgb);
	for (i = 0; i < 3; i++)
		l[i] = to_linear(rgb[i]);
	for (i = 0; i < 3; i++) {
		s[i] = cvd[v][i][0] * l[0] + cvd[v][i][1] * l[1] +
		       cvd[v][i][2] * l[2];
		s[i] = s[i] < 0 ? 0 : s[i] > 1 ? 1 : s[i];
	}
	x = (0.4124 * s[0] + 0.3576 * s[1] + 0.1805 * s[2]) / 0.95047;
	y = 0.2126 * s[0] + 0.7152 * s[1] + 0.0722 * s[2];
	z = (0.0193 * s[0] + 0.1192 * s[1] + 0.9505 * s[2]) / 1.08883;
	lab[0] = 116 * lab_f(y) - 16;
	lab[1] = 500 * (lab_f(x) - lab_f(y));
	lab[2] = 200 * (lab_f(y) - lab_f(z));
}

static double rad(double deg)
{
	return deg * M_PI / 180;
}

static double hue(double b, double a)
{
	double h = atan2(b, a) * 180 / M_PI;

	return h < 0 ? h + 360 : h;
}

/* CIEDE2000 (Sharma, Wu and Dalal 2005). */
static double de2000(const double p[3], const double q[3])
{
	double c1 = hypot(p[1], p[2]), c2 = hypot(q[1], q[2]);
	double cb7 = pow((c1 + c2) / 2, 7);
	double g = 0.5 * (1 - sqrt(cb7 / (cb7 + pow(25, 7))));
	double a1 = (1 + g) * p[1], a2 = (1 + g) * q[1];
	double c1p = hypot(a1, p[2]), c2p = hypot(a2, q[2]);
	double h1 = hue(p[2], a1), h2 = hue(q[2], a2);
	double dl = q[0] - p[0], dc = c2p - c1p, dh = 0, hb = h1 + h2;
	double lb = (p[0] + q[0]) / 2, cbp = (c1p + c2p) / 2, t, sl, sc, sh;
	double dth, rc, cbp7;

	if (c1p * c2p != 0) {
		dh = h2 - h1;
		if (dh > 180)
			dh -= 360;
		else if (dh < -180)
			dh += 360;
		if (fabs(h1 - h2) <= 180)
			hb = (h1 + h2) / 2;
		else
			hb = (h1 + h2 + (h1 + h2 < 360 ? 360 : -360)) / 2;
	}
	dh = 2 * sqrt(c1p * c2p) * sin(rad(dh / 2));
	t = 1 - 0.17 * cos(rad(hb - 30)) + 0.24 * cos(rad(2 * hb)) +
	    0.32 * cos(rad(3 * hb + 6)) - 0.20 * cos(rad(4 * hb - 63));
	dth = 30 * exp(-pow((hb - 275) / 25, 2));
	cbp7 = pow(cbp, 7);
	rc = 2 * sqrt(cbp7 / (cbp7 + pow(25, 7)));
	sl = 1 + 0.015 * pow(lb - 50, 2) / sqrt(20 + pow(lb - 50, 2));
	sc = 1 + 0.045 * cbp;
	sh = 1 + 0.015 * cbp * t;
	return sqrt(pow(dl / sl, 2) + pow(dc / sc, 2) + pow(dh / sh, 2) -
		    sin(rad(2 * dth)) * rc * (dc / sc) * (dh / sh));
}

/* The smallest distance between two of the n colours with vision v; the
 * pair in *pa, *pb. */
static double min_distance(const int *c, int n, enum vision v, int *pa,
			   int *pb)
{
	double lab[2][3], best = 1e9, d;
	int i, j;

	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++) {
			xterm_lab(c[i], v, lab[0]);
			xterm_lab(c[j], v, lab[1]);
			d = de2000(lab[0], lab[1]);
			if (d < best) {
				best = d;
				*pa = i;
				*pb = j;
			}
		}
	return best;
}

/* 1 when the n colours pass every bound. */
static int legible(const int *c, int n, int verbose)
{
	int v, a = 0, b = 0, ok = 1;
	double d;

	for (v = 0; v < V_MAX; v++) {
		d = min_distance(c, n, v, &a, &b);
		if (verbose)
			printf("# %-12s smallest distance %.2f (%d, %d)\n",
			       vision_name[v], d, c[a], c[b]);
		if (d < (v == V_TRITAN ? MIN_DE_T : MIN_DE_RG))
			ok = 0;
	}
	return ok;
}

/* WCAG relative luminance and contrast ratio against black and white. */
static double luminance(int idx)
{
	unsigned char rgb[3];

	pal_xterm_rgb(idx, rgb);
	return 0.2126 * to_linear(rgb[0]) + 0.7152 * to_linear(rgb[1]) +
	       0.0722 * to_linear(rgb[2]);
}

static void test_palette_legible(void **state)
{
	int c[OWN_CLASS_MAX + PAL_NOVERLAY], n = 0, i;

	(void)state;
	for (i = 0; i < OWN_CLASS_MAX; i++)
		c[n++] = pal_class256[i];
	for (i = 0; i < PAL_NOVERLAY; i++)
		c[n++] = pal_overlay256[i];
	assert_true(legible(c, n, 1));
}

static void test_palette_readable_on_both_themes(void **state)
{
	double y, on_black, on_white;
	int i;

	(void)state;
	for (i = 0; i < OWN_CLASS_MAX + PAL_NOVERLAY; i++) {
		int idx = i < OWN_CLASS_MAX ? pal_class256[i]
					    : pal_overlay256[i - OWN_CLASS_MAX];

		y = luminance(idx);
		on_black = (y + 0.05) / 0.05;
		on_white = 1.05 / (y + 0.05);
		if (on_black < 2.5 || on_white < 1.4)
			fail_msg("colour %d: contrast %.2f on black, %.2f on "
				 "white", idx, on_black, on_white);
	}
}

/* The check is not blind: the 8 colours the classes shared before, and a
 * pair that only deuteranopes confuse, are refused. */
static void test_palette_check_refuses(void **state)
{
	/* the old map: 15 classes on xterm's 8 (+ bright) colours */
	static const int old[OWN_CLASS_MAX] = {
		7, 4, 9, 1, 5, 11, 3, 5, 14, 15, 2, 12, 10, 1, 7
	};
	/* far apart for normal vision, alike for a deuteranope */
	static const int deutan_pair[] = {39, 201, 29, 220};
	int a, b;
	double lab[2][3];

	(void)state;
	assert_false(legible(old, OWN_CLASS_MAX, 0));
	xterm_lab(39, V_NORMAL, lab[0]);
	xterm_lab(201, V_NORMAL, lab[1]);
	assert_true(de2000(lab[0], lab[1]) > 30);
	assert_false(legible(deutan_pair, 4, 0));
	assert_true(min_distance(deutan_pair, 4, V_NORMAL, &a, &b) > 30);
	/* a colour against itself is no distance */
	xterm_lab(29, V_DEUTAN, lab[0]);
	assert_true(de2000(lab[0], lab[0]) < 1e-9);
}

/* Sharma et al.'s published test pairs (Table 1: pairs 1, 7 and 17). */
static void test_de2000_reference(void **state)
{
	static const double p[3][2][3] = {
		{{50, 2.6772, -79.7751}, {50, 0, -82.7485}},
		{{50, 0, 0}, {50, -1, 2}},
		{{50, 2.5, 0}, {73, 25, -18}},
	};
	static const double want[3] = {2.0425, 2.3669, 27.1492};
	int i;

	(void)state;
	for (i = 0; i < 3; i++)
		assert_true(fabs(de2000(p[i][0], p[i][1]) - want[i]) < 1e-3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_de2000_reference),
		cmocka_unit_test(test_palette_check_refuses),
		cmocka_unit_test(test_palette_legible),
		cmocka_unit_test(test_palette_readable_on_both_themes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
