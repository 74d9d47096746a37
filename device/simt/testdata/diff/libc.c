/* A wider sweep through compiled code: picolibc's printf/strtod (soft double, so
   long integer sequences), qsort with a callback, malloc, setjmp/longjmp, a jump
   table and deep recursion. */
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include "common.h"

static int cmp(const void *a, const void *b) {
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

static jmp_buf env;
static int depth(int n) {
	if (n == 0) longjmp(env, 42);
	return depth(n - 1) + 1;
}

__attribute__((noinline)) static int jump(int k) {
	switch (k) {
	case 0: return 11;
	case 1: return 23;
	case 2: return 37;
	case 3: return 41;
	case 4: return 53;
	case 5: return 67;
	case 6: return 71;
	default: return -1;
	}
}

static uint32_t ack(uint32_t m, uint32_t n) {
	return m == 0 ? n + 1 : n == 0 ? ack(m - 1, 1) : ack(m - 1, ack(m, n - 1));
}

int main(void) {
	lcg_state = 5;
	uint32_t *v = malloc(500 * sizeof *v);
	for (int i = 0; i < 500; i++) v[i] = rnd();
	qsort(v, 500, sizeof *v, cmp);
	hash_t h;
	hinit(&h);
	for (int i = 0; i < 500; i++) hadd(&h, v[i]);
	free(v);
	printf("qsort %08lx\n", (unsigned long)h.h);

	char buf[64];
	double d = 1.0;
	for (int i = 0; i < 12; i++) {
		snprintf(buf, sizeof buf, "%.10e|%g|%f", d, d / 7.0, -d * 3.25);
		printf("%s %.17g\n", buf, strtod(buf, NULL));
		d *= -13.7;
	}
	int r = setjmp(env);
	if (r == 0) depth(50);
	printf("longjmp %d\n", r);
	int s = 0;
	for (int k = 0; k < 9; k++) s = s * 3 + jump(k);
	printf("switch %d ack %lu\n", s, (unsigned long)ack(2, 3));
	printf("strings %d %d %s\n", (int)strlen("vortex"), strcmp("abc", "abd"), strchr("simt core", 'c'));
	return 9;
}
