/*
 * batch.c - parallel batch runs (see batch.h).
 *
 * The parent forks opt->jobs workers and hands each one file index at a
 * time through its task pipe.  A worker runs the caller's function with
 * stdout and stderr in memory, resets and reads the kernel's peak-RSS mark
 * around it, and sends one frame (index, status, peak RSS, both outputs)
 * through its result pipe.  The parent polls the result pipes, files the
 * frames, and prints the outputs strictly in file order.  A worker whose
 * pipe closes while it holds a file has crashed: that file is reported as
 * an internal error and a fresh worker takes the slot.  It does not read
 * the outputs: the verdict and States count of the --times table come in
 * the frame, as batch_fn gave them (batch_row).
 */
#include "cli/batch.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __SANITIZE_ADDRESS__
#include <sanitizer/lsan_interface.h>
#endif
#include "common/afile.h"
#include "common/clock.h"
#include "common/exitcode.h"
#include "common/xalloc.h"
#include "common/memlimit.h"

/* The signal (SIGINT, SIGTERM, SIGPIPE) that asked the batch to stop, 0
 * while none has.  A signal handler can do no more than set a flag, and it
 * has no context to set it in: this is the process's one global.  The
 * loop of batch_run stops the workers, writes the --times rows of the
 * tests done and dies of the same signal. */
static volatile sig_atomic_t batch_stop_signal;

static void on_stop_signal(int sig)
{
	batch_stop_signal = sig;
}

/* Catch (how 1) or restore to their defaults (how 0) the signals that stop
 * a batch.  No SA_RESTART: poll() returns at once with EINTR. */
static void stop_signals(int how)
{
	struct sigaction sa = {0};
	sa.sa_handler = how ? on_stop_signal : SIG_DFL;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGPIPE, &sa, NULL);
}

/* Text a child has written so far on one pipe. */
struct text {
	char *buf;  /* bytes, not NUL-terminated while growing */
	size_t len; /* how many */
	size_t cap; /* room */
};

/* What is known about one file of the batch. */
struct result {
	struct text out;  /* its stdout */
	struct text err;  /* its stderr */
	int done;         /* 1 once its result came back */
	int status;       /* the child's exit status, or 128 + signal */
	double seconds;   /* wall time from sending the file to its result */
	long rss_kb;      /* peak resident set of the worker while on it */
	int timed_out;    /* 1: its worker was killed at the limit */
	struct batch_row row; /* its verdict and States count ("-", -1 for a
			   * lost worker's file) */
};

/* A worker process: it handles one file at a time, as the parent says. */
struct worker {
	pid_t pid;        /* the process, 0 when the slot is free */
	int task_fd;      /* write end: the parent sends file indices */
	int result_fd;    /* read end: the worker sends frames back */
	int index;        /* the file it is working on, -1 when idle */
	double start;     /* when that file was sent */
	int killed;       /* 1: killed for running past the limit */
	struct text in;   /* bytes of a frame received so far */
};

/* What a worker sends back per file, followed by the out and err bytes. */
struct frame {
	int index;        /* which file */
	int status;       /* what batch_fn returned */
	long rss_kb;      /* peak resident set while handling it */
	struct batch_row row; /* what its --times row says of its answer */
	size_t nout;      /* bytes of stdout that follow */
	size_t nerr;      /* bytes of stderr that follow them */
};

/* The state of one batch run. */
struct batch {
	const struct batch_options *opt; /* how to run */
	int nfiles;               /* how many files */
	char *const *files;       /* their paths */
	batch_fn fn;              /* what to do with each */
	void *ctx;                /* its context */
	struct result *res;       /* per file */
	struct worker *w;         /* opt->jobs workers */
	struct pollfd *pf;        /* step's poll set, one per worker */
	int *owner;               /* the worker of each entry of pf */
	int next;                 /* next file to hand out */
	int printed;              /* files whose output is out */
	int failed;               /* files that returned 1 or crashed */
	int status;               /* the files' statuses combined */
	FILE *times;              /* the --times table, or NULL */
	struct afile times_file;  /* where it is written (temporary name) */
	double t0;                /* when the batch started */
	double last_progress;     /* when the progress line was last drawn */
	int progress_shown;       /* 1 while a progress line is on screen */
	int tty;                  /* stderr is a terminal */
};

static void text_add(struct text *t, const char *p, size_t n)
{
	if (n == 0)
		return;
	XGROW(t->buf, t->cap, t->len + n, 4096);
	memcpy(t->buf + t->len, p, n);
	t->len += n;
}

/* Write all of buf or fail. */
static int write_all(int fd, const void *buf, size_t n)
{
	const char *p = buf;
	while (n > 0) {
		ssize_t k = write(fd, p, n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return 0;
		p += k;
		n -= (size_t)k;
	}
	return 1;
}

/* Reset the kernel's peak-RSS mark of this process (Linux >= 4.0); 0 if
 * that is not possible, and the process-wide peak is reported instead. */
static int reset_peak_rss(void)
{
	int fd = open("/proc/self/clear_refs", O_WRONLY);
	if (fd < 0)
		return 0;
	int ok = write(fd, "5", 1) == 1;
	close(fd);
	return ok;
}

static long peak_rss_kb(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	long kb = -1;
	char line[256];
	while (f && fgets(line, sizeof line, f))
		if (sscanf(line, "VmHWM: %ld", &kb) == 1)
			break;
	if (f)
		fclose(f);
	if (kb < 0) {
		struct rusage ru;
		getrusage(RUSAGE_SELF, &ru);
		kb = ru.ru_maxrss;
	}
	return kb;
}

/* A worker ends with _exit (the parent's stdio buffers and atexit
 * handlers are not its own), which skips LeakSanitizer's check at exit.
 * Under AddressSanitizer (make asan) the worker runs that check itself,
 * so what its tests leak is reported as in a run of one test. */
static void leak_check(void)
{
#ifdef __SANITIZE_ADDRESS__
	__lsan_do_leak_check();
#endif
}

/* A worker's life: read a file index, handle the file with its output in
 * memory, send the frame, until the parent closes the task pipe. */
static void worker_main(struct batch *b, int task_fd, int result_fd)
{
	int index;
	while (read(task_fd, &index, sizeof index) == (ssize_t)sizeof index) {
		char *obuf = NULL, *ebuf = NULL;
		size_t olen = 0, elen = 0;
		FILE *out = open_memstream(&obuf, &olen);
		FILE *err = open_memstream(&ebuf, &elen);
		if (!out || !err)
			_exit(1);
		reset_peak_rss();
		memlimit_backstop(b->opt->max_memory_mb * 1024L);
		struct batch_row row;
		batch_row_none(&row);
		int st = b->fn(b->ctx, b->files[index], out, err, &row);
		fclose(out);
		fclose(err);
		struct frame fr = {index, st, peak_rss_kb(), row, olen, elen};
		int ok = write_all(result_fd, &fr, sizeof fr) &&
			 write_all(result_fd, obuf, olen) && write_all(result_fd, ebuf, elen);
		free(obuf);
		free(ebuf);
		if (!ok)
			_exit(1);
	}
	leak_check();
	_exit(0);
}

static int spawn(struct batch *b, struct worker *w)
{
	int task[2], result[2];
	if (pipe2(task, O_CLOEXEC) || pipe2(result, O_CLOEXEC)) {
		perror("lkmmc: pipe");
		return 0;
	}
	fflush(stdout);
	fflush(stderr);
	long parent_rss_kb = memlimit_rss_kb();
	pid_t pid = fork();
	if (pid < 0) {
		perror("lkmmc: fork");
		return 0;
	}
	if (pid == 0) {
		stop_signals(0); /* a worker dies of them at once */
		memlimit_rss_floor(parent_rss_kb);
		/* Only this worker's own pipe ends stay open. */
		for (int k = 0; k < b->opt->jobs; k++)
			if (b->w[k].pid > 0) {
				close(b->w[k].task_fd);
				close(b->w[k].result_fd);
			}
		close(task[1]);
		close(result[0]);
		worker_main(b, task[0], result[1]);
	}
	close(task[0]);
	close(result[1]);
	*w = (struct worker){.pid = pid, .task_fd = task[1], .result_fd = result[0],
			     .index = -1};
	return 1;
}

static int send_task(struct batch *b, struct worker *w, int index)
{
	w->index = index;
	w->start = clock_now();
	if (write_all(w->task_fd, &index, sizeof index))
		return 1;
	(void)b;
	return 0;
}

/* The worker died (crash, or killed): its current file is reported as
 * crashed and the slot freed for a new worker. */
static void bury(struct batch *b, struct worker *w)
{
	int st = 0;
	struct rusage ru = {0};
	close(w->task_fd);
	close(w->result_fd);
	while (wait4(w->pid, &st, 0, &ru) < 0 && errno == EINTR)
		;
	/* Stopping at a signal (a terminal's ^C reaches the workers too):
	 * their tests are not reported. */
	if (w->index >= 0 && !batch_stop_signal) {
		struct result *r = &b->res[w->index];
		r->done = 1;
		batch_row_none(&r->row);
		r->seconds = clock_now() - w->start;
		r->rss_kb = ru.ru_maxrss; /* the worker's peak over its life */
		char msg[512];
		int memory = !w->killed && WIFEXITED(st) && WEXITSTATUS(st) == MEMLIMIT_EXIT;
		if (memory) {
			r->status = LKMMC_EXIT_ERROR;
			snprintf(msg, sizeof msg,
				 "too large for the memory limit: the solver ran out "
				 "of the %ld MB allowed (stopped after %.1f s); try "
				 "--exists-only, a smaller --unroll, or --max-memory MB",
				 b->opt->max_memory_mb, r->seconds);
		} else if (w->killed) {
			r->status = LKMMC_EXIT_ERROR;
			r->timed_out = 1;
			/* a C program (.c) has --exists-only's questions already */
			const char *f = b->files[w->index];
			size_t n = strlen(f);
			int program = n > 2 && !strcmp(f + n - 2, ".c");
			snprintf(msg, sizeof msg,
				 "solver gave up while checking (time-out: "
				 "stopped after %.1f s, the limit being %.0f s); try "
				 "--timeout with a larger value or %s",
				 r->seconds, b->opt->kill_after,
				 program ? "--first-error" : "--exists-only");
		} else {
			r->status = 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
			snprintf(msg, sizeof msg,
				 "lkmmc crashed on this test (%s %d); "
				 "please report it with the test attached",
				 WIFSIGNALED(st) ? "signal" : "exit",
				 WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
		}
		char line[1200];
		int k = snprintf(line, sizeof line, "%s: %serror: %s\n", b->files[w->index],
				 w->killed || memory ? "" : "internal ", msg);
		text_add(&r->err, line, (size_t)k < sizeof line ? (size_t)k : sizeof line - 1);
		if (b->opt->lost) {
			char *obuf = NULL;
			size_t olen = 0;
			FILE *o = open_memstream(&obuf, &olen);
			if (o) {
				b->opt->lost(b->ctx, b->files[w->index],
					     memory ? DIAG_MEMORY : w->killed ? DIAG_TIMEOUT
					     : DIAG_CRASH, msg, o);
				fclose(o);
				text_add(&r->out, obuf, olen);
				free(obuf);
			}
		}
	}
	free(w->in.buf);
	*w = (struct worker){.pid = 0, .index = -1};
}

/* Read from a worker; when a whole frame is in, file its result. */
static void drain(struct batch *b, struct worker *w)
{
	char buf[65536];
	ssize_t n = read(w->result_fd, buf, sizeof buf);
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	if (n <= 0) {
		bury(b, w);
		return;
	}
	text_add(&w->in, buf, (size_t)n);
	struct frame fr;
	while (w->in.len >= sizeof fr) {
		memcpy(&fr, w->in.buf, sizeof fr);
		size_t total = sizeof fr + fr.nout + fr.nerr;
		if (w->in.len < total)
			return;
		struct result *r = &b->res[fr.index];
		text_add(&r->out, w->in.buf + sizeof fr, fr.nout);
		text_add(&r->err, w->in.buf + sizeof fr + fr.nout, fr.nerr);
		r->status = fr.status;
		r->rss_kb = fr.rss_kb;
		r->row = fr.row;
		r->seconds = clock_now() - w->start;
		r->done = 1;
		w->index = -1;
		memmove(w->in.buf, w->in.buf + total, w->in.len - total);
		w->in.len -= total;
	}
}

void batch_row_none(struct batch_row *row)
{
	*row = (struct batch_row){.verdict = "-", .nstates = -1};
}

static void clear_progress(struct batch *b)
{
	if (b->progress_shown && b->tty)
		fputs("\r\033[K", stderr);
	b->progress_shown = 0;
}

static void show_progress(struct batch *b, int force)
{
	if (!b->opt->progress)
		return;
	double t = clock_now();
	if (!force && t - b->last_progress < (b->tty ? 0.2 : 30.0))
		return;
	b->last_progress = t;
	double el = t - b->t0;
	double left = b->printed ? el / b->printed * (b->nfiles - b->printed) : 0;
	fprintf(stderr, "%slkmmc: %d/%d tests, %d failed, %.0f s elapsed, about %.0f s left%s",
		b->tty ? "\r\033[K" : "", b->printed, b->nfiles, b->failed, el, left,
		b->tty ? "" : "\n");
	b->progress_shown = 1;
}

/* Print, in file order, every finished result not printed yet. */
static void flush_ready(struct batch *b)
{
	while (b->printed < b->nfiles && b->res[b->printed].done) {
		struct result *r = &b->res[b->printed];
		if (r->out.len)
			fwrite(r->out.buf, 1, r->out.len, stdout);
		fflush(stdout);
		if (r->err.len) {
			clear_progress(b);
			fwrite(r->err.buf, 1, r->err.len, stderr);
		}
		int st = r->status >= 128 ? LKMMC_EXIT_ERROR : r->status;
		if (b->opt->printed)
			b->opt->printed(b->ctx, st, r->out.len);
		b->failed += st == LKMMC_EXIT_ERROR;
		b->status = exit_combine(b->status, st);
		if (b->times) {
			fprintf(b->times, "%s\t%s\t%.3f\t%ld\t%s\t%ld\n", b->files[b->printed],
				r->status == 0 ? "ok" : r->status >= 128 ? "crash" :
				r->timed_out ? "timeout" : "error",
				r->seconds, r->rss_kb, r->row.verdict, r->row.nstates);
			fflush(b->times); /* readable while a long batch runs */
		}
		free(r->out.buf);
		free(r->err.buf);
		r->out = r->err = (struct text){0};
		b->printed++;
		show_progress(b, 0);
	}
}

/* How long to wait for results: a second, or until the first worker on a
 * file reaches the limit. */
static int poll_ms(const struct batch *b)
{
	double wait = 1.0, now = clock_now();
	for (int k = 0; k < b->opt->jobs && b->opt->kill_after > 0; k++) {
		const struct worker *w = &b->w[k];
		if (w->pid && w->index >= 0 && w->start + b->opt->kill_after - now < wait)
			wait = w->start + b->opt->kill_after - now;
	}
	return wait < 0.01 ? 10 : (int)(wait * 1000);
}

/* Kill the workers past the limit; their files are reported as timed
 * out and fresh workers take the slots. */
static void kill_late(struct batch *b)
{
	double now = clock_now();
	for (int k = 0; k < b->opt->jobs && b->opt->kill_after > 0; k++) {
		struct worker *w = &b->w[k];
		if (!w->pid || w->index < 0 || now - w->start < b->opt->kill_after)
			continue;
		kill(w->pid, SIGKILL);
		w->killed = 1;
		bury(b, w);
	}
}

/* Keep every worker busy, then wait for results and file them. */
static int step(struct batch *b)
{
	int nj = b->opt->jobs, np = 0;
	struct pollfd *pf = b->pf;
	int *owner = b->owner;
	for (int k = 0; k < nj; k++) {
		struct worker *w = &b->w[k];
		if (!w->pid && b->next < b->nfiles && !spawn(b, w))
			break;
		if (w->pid && w->index < 0 && b->next < b->nfiles &&
		    !send_task(b, w, b->next++))
			bury(b, w);
		if (w->pid && w->index >= 0) {
			pf[np].fd = w->result_fd;
			pf[np].events = POLLIN;
			owner[np++] = k;
		}
	}
	if (np > 0 && poll(pf, (nfds_t)np, poll_ms(b)) > 0)
		for (int k = 0; k < np; k++)
			if (pf[k].revents)
				drain(b, &b->w[owner[k]]);
	kill_late(b);
	return np;
}

/* Stop at a signal: kill the workers (their tests are not reported),
 * print and record the tests done so far. */
static void stop_workers(struct batch *b)
{
	for (int k = 0; k < b->opt->jobs; k++) {
		struct worker *w = &b->w[k];
		if (!w->pid)
			continue;
		kill(w->pid, SIGKILL);
		w->index = -1;
		bury(b, w);
	}
	flush_ready(b);
}

int batch_run(const struct batch_options *opt, int nfiles, char *const *files,
	      batch_fn fn, void *ctx)
{
	struct batch b = {.opt = opt, .nfiles = nfiles, .files = files, .fn = fn,
			  .ctx = ctx, .t0 = clock_now(), .tty = isatty(2)};
	if (opt->times_path) {
		b.times = afile_open(&b.times_file, opt->times_path);
		if (!b.times) {
			fprintf(stderr, "lkmmc: cannot write %s: %s\n", opt->times_path,
				strerror(errno));
			return LKMMC_EXIT_USAGE;
		}
		fputs("path\tstatus\tseconds\tpeak_rss_kb\tverdict\tstates\n", b.times);
	}
	b.res = xcalloc((size_t)nfiles + 1, sizeof *b.res);
	b.w = xcalloc((size_t)opt->jobs, sizeof *b.w);
	b.pf = xcalloc((size_t)opt->jobs, sizeof *b.pf);
	b.owner = xcalloc((size_t)opt->jobs, sizeof *b.owner);
	for (int k = 0; k < opt->jobs; k++)
		b.w[k].index = -1;
	batch_stop_signal = 0;
	stop_signals(1);
	int broken = 0;
	while (b.printed < nfiles && !batch_stop_signal) {
		if (step(&b) == 0 && b.printed < nfiles && !b.res[b.printed].done) {
			broken = 1; /* no worker could be started */
			break;
		}
		flush_ready(&b);
		show_progress(&b, 0);
	}
	int sig = batch_stop_signal;
	if (sig)
		stop_workers(&b);
	for (int k = 0; k < opt->jobs; k++)
		if (b.w[k].pid)
			bury(&b, &b.w[k]);
	if (opt->progress) {
		show_progress(&b, 1);
		if (b.tty)
			fputc('\n', stderr);
	}
	int times_ok = 1;
	if (b.times && !afile_commit(&b.times_file)) {
		times_ok = 0;
		fprintf(stderr, "lkmmc: cannot write %s: %s\n", opt->times_path,
			strerror(errno));
	}
	for (int i = b.printed; i < nfiles; i++) {
		free(b.res[i].out.buf);
		free(b.res[i].err.buf);
	}
	free(b.res);
	free(b.w);
	free(b.pf);
	free(b.owner);
	stop_signals(0);
	if (sig)
		raise(sig); /* die of it, as the shell expects */
	if (broken)
		return LKMMC_EXIT_USAGE;
	return times_ok ? b.status : exit_combine(b.status, LKMMC_EXIT_ERROR);
}
