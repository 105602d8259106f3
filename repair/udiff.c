/*
 * udiff.c - unified diff of two small texts; see udiff.h.
 *
 * A longest common subsequence of lines by dynamic programming, then the
 * edit script walked once and cut into hunks with 3 lines of context.
 */
#include "repair/udiff.h"

#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"

/* A text cut into lines (pointers into it, not NUL-terminated). */
struct lines {
	const char **p; /* start of each line */
	int *len;       /* its length, with its newline */
	int n;          /* how many */
};

static void split(const char *t, struct lines *l)
{
	int cap = 0;
	*l = (struct lines){0};
	int lcap = 0;
	for (const char *s = t; *s;) {
		const char *e = strchr(s, '\n');
		int len = e ? (int)(e - s) + 1 : (int)strlen(s);
		XGROW(l->p, cap, l->n + 1, 64);
		XGROW(l->len, lcap, l->n + 1, 64);
		l->p[l->n] = s;
		l->len[l->n++] = len;
		s += len;
	}
}

static int same(const struct lines *a, int i, const struct lines *b, int j)
{
	return a->len[i] == b->len[j] && memcmp(a->p[i], b->p[j], (size_t)a->len[i]) == 0;
}

static void put_line(char tag, const char *p, int len, FILE *out)
{
	fputc(tag, out);
	fwrite(p, 1, (size_t)len, out);
	if (len == 0 || p[len - 1] != '\n')
		fputs("\n\\ No newline at end of file\n", out);
}

/* One step of the edit script: 0 keep a[i]=b[j], 1 drop a[i], 2 add b[j]. */
struct op {
	int kind; /* 0 keep, 1 delete, 2 insert */
	int i, j; /* the lines (of a, of b) */
};

void udiff_print(const char *a, const char *b, const char *name_a,
		 const char *name_b, FILE *out)
{
	struct lines la, lb;
	split(a, &la);
	split(b, &lb);
	int n = la.n, m = lb.n;
	/* lcs[i][j]: the LCS length of a[i..] and b[j..] */
	int *lcs = xcalloc((size_t)(n + 1) * (size_t)(m + 1), sizeof *lcs);
#define L(i, j) lcs[(size_t)(i) * (size_t)(m + 1) + (size_t)(j)]
	for (int i = n - 1; i >= 0; i--)
		for (int j = m - 1; j >= 0; j--)
			L(i, j) = same(&la, i, &lb, j) ? L(i + 1, j + 1) + 1
				: L(i + 1, j) > L(i, j + 1) ? L(i + 1, j) : L(i, j + 1);
	struct op *ops = xmalloc_array((size_t)(n + m + 1), sizeof *ops);
	int nops = 0, i = 0, j = 0;
	while (i < n || j < m) {
		if (i < n && j < m && same(&la, i, &lb, j))
			ops[nops++] = (struct op){0, i++, j++};
		else if (j >= m || (i < n && L(i + 1, j) >= L(i, j + 1)))
			ops[nops++] = (struct op){1, i++, j};
		else
			ops[nops++] = (struct op){2, i, j++};
	}
#undef L
	free(lcs);
	int header = 0;
	for (int k = 0; k < nops;) {
		if (ops[k].kind == 0) {
			k++;
			continue;
		}
		/* a hunk: from 3 kept lines before k to 3 after the last
		 * change that is no more than 6 kept lines from the next */
		int start = k;
		while (start > 0 && k - start < 3 && ops[start - 1].kind == 0)
			start--;
		int end = k;
		for (;;) {
			while (end < nops && ops[end].kind != 0)
				end++;
			int keep = end;
			while (keep < nops && ops[keep].kind == 0 && keep - end < 7)
				keep++;
			if (keep < nops && ops[keep].kind != 0 && keep - end <= 6) {
				end = keep;
				continue;
			}
			end = end + 3 < nops ? end + 3 : nops;
			break;
		}
		int na = 0, nb = 0;
		for (int q = start; q < end; q++) {
			na += ops[q].kind != 2;
			nb += ops[q].kind != 1;
		}
		if (!header) {
			fprintf(out, "--- %s\n+++ %s\n", name_a, name_b);
			header = 1;
		}
		fprintf(out, "@@ -%d,%d +%d,%d @@\n", na ? ops[start].i + 1 : ops[start].i, na,
			nb ? ops[start].j + 1 : ops[start].j, nb);
		for (int q = start; q < end; q++) {
			const struct op *o = &ops[q];
			if (o->kind == 2)
				put_line('+', lb.p[o->j], lb.len[o->j], out);
			else
				put_line(o->kind ? '-' : ' ', la.p[o->i], la.len[o->i], out);
		}
		k = end;
	}
	free(ops);
	free(la.p);
	free(la.len);
	free(lb.p);
	free(lb.len);
}
