// jemalloc's settings for the tlens process (read once, before main; cmake/Allocator.cmake links
// this file only with jemalloc). MALLOC_CONF in the environment still overrides them.
//  - narenas:1: one arena for every thread. The language server's worker builds an analysis
//    while its background thread builds the next pause and frees the previous version; with an
//    arena per thread each one kept the peak it had seen (the server's resident memory stayed
//    ~35 MB above what was live). Per-thread caches keep small allocations off the arena's lock
//    (no slower in `tlens_bench edit`, `mlp`).
//  - dirty_decay_ms:300, muzzy_decay_ms:0: pages freed are given back to the system within
//    ~0.3 s, at once once purged (not kept "muzzy"): a version's teardown returns its memory
//    before the next edit's peak. Giving it back at once (0) cost 15-20% speed.
extern "C" {
const char* malloc_conf = "narenas:1,dirty_decay_ms:300,muzzy_decay_ms:0";
}
