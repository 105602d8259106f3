/*
 * afile.h - write an output file whole or not at all: the text goes to a
 * temporary name beside it (NAME.tmp-PID) which is renamed to NAME only
 * once everything is written and closed, so that a full disk or a signal
 * never leaves a half-written file under the final name.  A path that
 * exists and is not a regular file (/dev/stdout, /dev/null, /dev/full, a
 * FIFO) is written directly: there is no file to replace.
 *
 * It does not retry, fsync or report anything: callers say what failed
 * (errno is kept).
 */
#ifndef LKMMC_AFILE_H
#define LKMMC_AFILE_H

#include <stdio.h>

struct afile {
	char *path; /* the final name (owned copy) */
	char *tmp;  /* the temporary name, NULL when writing path directly */
	FILE *f;    /* the open stream, NULL once committed or discarded */
};

/* Open a for writing path.  Returns its stream, or NULL (errno set). */
FILE *afile_open(struct afile *a, const char *path);

/* Close the stream and, when every write succeeded, rename the temporary
 * name to the final one.  Returns 1, or 0 with errno set and the
 * temporary file removed. */
int afile_commit(struct afile *a);

/* Close the stream and remove the temporary file (an aborted write). */
void afile_discard(struct afile *a);

#endif
