/*
 * shard.c - lkmmc --shard K/N (see shard.h).
 */
#include "cli/shard.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>


int shard_parse(const char *s, struct shard *sh)
{
	char *end;
	long k = strtol(s, &end, 10);
	if (end == s || *end != '/')
		return 0;
	const char *ns = end + 1;
	long n = strtol(ns, &end, 10);
	if (end == ns || *end || n < 1 || n > 1000000 || k < 1 || k > n)
		return 0;
	sh->k = k;
	sh->n = n;
	return 1;
}

long shard_of(const char *path, long n)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	uint64_t h = 14695981039346656037ull; /* FNV-1a, 64 bits */
	for (const unsigned char *p = (const unsigned char *)base; *p; p++) {
		h ^= *p;
		h *= 1099511628211ull;
	}
	return (long)(h % (uint64_t)n) + 1;
}

int shard_filter(const struct shard *sh, char **files, int n)
{
	int kept = 0;
	for (int i = 0; i < n; i++) {
		if (sh->n <= 1 || shard_of(files[i], sh->n) == sh->k)
			files[kept++] = files[i];
		else
			free(files[i]);
	}
	return kept;
}
