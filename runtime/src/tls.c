/* The thread-local record cursor that instrumented code appends to (Part of ABI: the name is
 * rdtrace::abi::CURSOR_TLS). Defined in C because stable Rust cannot export a thread-local
 * symbol; the runtime reaches its own thread's cursor through __rdt_cursor_address(). */
__thread void *__rdt_cursor;

void **__rdt_cursor_address(void) { return &__rdt_cursor; }
