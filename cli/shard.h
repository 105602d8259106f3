/*
 * shard.h - lkmmc --shard K/N: the share of a list of files that shard K
 * of N checks, so that N machines (GNU parallel, a Slurm job array) split
 * one corpus between them with no coordination.
 *
 * A file belongs to shard hash(basename) mod N + 1, the hash being 64-bit
 * FNV-1a of the file's base name: the partition depends neither on the
 * order of the list nor on the folder the corpus sits in on each machine,
 * and every file is in exactly one shard.  It does not run or merge
 * anything (bench/merge-shards.py merges the shards' outputs).
 */
#ifndef LKMMC_SHARD_H
#define LKMMC_SHARD_H

/* One shard of a partition. */
struct shard {
	long k; /* which one, 1 to n */
	long n; /* how many shards in all (1: no sharding) */
};

/* Read "K/N" (1 <= K <= N <= 1000000); 0 when malformed. */
int shard_parse(const char *s, struct shard *sh);

/* The shard (1 to n) path belongs to among n. */
long shard_of(const char *path, long n);

/* Keep the files of files[0..n) in shard sh, in their order, at the
 * front of files; the others (malloc'd paths) are freed.  Returns how
 * many are kept.  sh->n of 0 or 1 keeps all. */
int shard_filter(const struct shard *sh, char **files, int n);

#endif
