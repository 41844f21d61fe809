/* rdtrace.h: region-of-interest markers for programs traced by rdtools.
 *
 *   #include <rdtrace.h>
 *   ...setup that should not be analysed...
 *   RDTRACE_START();
 *   kernel();
 *   RDTRACE_STOP();
 *
 * Built with rdcc (rdc++, rdclang, ...), which defines __RDTRACE__ and finds this header by
 * itself, a program that includes it starts with recording off: every thread records only
 * between RDTRACE_START() and RDTRACE_STOP() (process-wide; the calling thread switches at
 * once, the others at their next OpenMP event or function entry or return, so place the
 * markers in serial code). Under any other compiler the markers compile to nothing; copy this
 * header beside your sources (or install it with scripts/install.sh) so both builds work.
 * The environment variable RDTRACE_ROI=function[,function] selects by function instead, with
 * no source change; with both, a thread records when both allow it. */
#ifndef RDTRACE_H
#define RDTRACE_H

#if defined(__RDTRACE__)

#ifdef __cplusplus
extern "C" {
#endif
void __rdtrace_start(void);
void __rdtrace_stop(void);
void __rdtrace_markers_used(void);
#ifdef __cplusplus
}
#endif

/* Runs before main in every translation unit that includes this header: the run starts with
 * recording off until RDTRACE_START(). (rdcc does not instrument functions named __rdt_*.) */
__attribute__((constructor(101), used)) static void __rdt_markers_in_this_unit(void) {
  __rdtrace_markers_used();
}

#define RDTRACE_START() __rdtrace_start()
#define RDTRACE_STOP() __rdtrace_stop()

#else

#define RDTRACE_START() ((void)0)
#define RDTRACE_STOP() ((void)0)

#endif /* __RDTRACE__ */

#endif /* RDTRACE_H */
