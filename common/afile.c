/*
 * afile.c - whole-or-nothing output files (see afile.h).
 */
#include "common/afile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/xalloc.h"

FILE *afile_open(struct afile *a, const char *path)
{
	*a = (struct afile){.path = xstrdup(path)};
	struct stat st;
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		a->f = fopen(path, "w");
	} else {
		size_t n = strlen(path) + 32;
		a->tmp = xmalloc(n);
		snprintf(a->tmp, n, "%s.tmp-%ld", path, (long)getpid());
		a->f = fopen(a->tmp, "w");
	}
	if (!a->f) {
		int e = errno;
		free(a->path);
		free(a->tmp);
		*a = (struct afile){0};
		errno = e;
	}
	return a->f;
}

/* Free the names; errno is kept. */
static void afile_done(struct afile *a)
{
	int e = errno;
	free(a->path);
	free(a->tmp);
	*a = (struct afile){0};
	errno = e;
}

int afile_commit(struct afile *a)
{
	int bad = 0, e = 0;
	if (fflush(a->f) != 0 || ferror(a->f)) {
		bad = 1;
		e = errno;
	}
	if (fclose(a->f) != 0 && !bad) {
		bad = 1;
		e = errno;
	}
	a->f = NULL;
	if (!bad && a->tmp && rename(a->tmp, a->path) != 0) {
		bad = 1;
		e = errno;
	}
	if (bad && a->tmp)
		unlink(a->tmp);
	errno = bad ? (e ? e : EIO) : 0;
	afile_done(a);
	return !bad;
}

void afile_discard(struct afile *a)
{
	if (a->f)
		fclose(a->f);
	if (a->tmp)
		unlink(a->tmp);
	afile_done(a);
}
