/* The thread-local variables that instrumented code uses inline (Part of ABI: the names are
 * rdtrace::abi::CURSOR_TLS, rdtrace::abi::COUNTDOWN_TLS and rdtrace::abi::EXPANDED_TLS). Defined in C because stable Rust
 * cannot export a thread-local symbol; the runtime reaches its own thread's copies through the
 * address functions. */

/* Where the thread's next raw record goes: null until the runtime first sees the thread (at
 * its first block's countdown hook at the latest). */
__thread void *__rdt_cursor;

/* Block entries the thread may make without calling __rdt_block_countdown: the entry that
 * takes it below zero calls it. 0 at a thread's start, so its first block takes the hook, which
 * registers the thread (and sets the cursor) before the block's inline record is stored. */
__thread int __rdt_blocks_free = 0;

void **__rdt_cursor_address(void) { return &__rdt_cursor; }

/* Events the thread's loop runs stood for since its buffer was last handed to the writer
 * (rdtrace::abi::EXPANDED_TLS): its hooks hand the buffer over once this is a few times the
 * buffer's record threshold. */
__thread long long __rdt_expanded;

int *__rdt_blocks_free_address(void) { return &__rdt_blocks_free; }

long long *__rdt_expanded_address(void) { return &__rdt_expanded; }
