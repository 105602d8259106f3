/* A helper header for MP+helpers+header.litmus (included from its preamble). */
static inline void publish(int *buf, int *flag, int v)
{
	WRITE_ONCE(*buf, v);
	smp_store_release(flag, 1);
}
