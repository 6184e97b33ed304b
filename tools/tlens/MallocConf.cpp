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
//  The commands that run programs keep freed pages longer (tools/tlens/Allocator.h).
#include <jemalloc/jemalloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/types.h>

extern "C" {
const char* malloc_conf = "narenas:1,dirty_decay_ms:300,muzzy_decay_ms:0";

/// Freed pages stay dirty (reused without a page fault) for `ms` milliseconds (-1: until exit), in every arena that
/// exists and every one made later. MALLOC_CONF's own dirty_decay_ms, when set, wins.
void tlens_jemalloc_keep_freed_pages(long ms) {
  const char* env = getenv("MALLOC_CONF");
  if (env && strstr(env, "dirty_decay_ms")) return;
  ssize_t v = ms;
  mallctl("arenas.dirty_decay_ms", nullptr, nullptr, &v, sizeof(v));
  // Allocations past oversize_threshold (8 MB) go to an arena of their own, made at the first
  // one, which jemalloc sets to purge at once whatever the default: make it now, then set it too.
  void* volatile probe = malloc(size_t{16} << 20);
  free(probe);
  unsigned narenas = 0;
  size_t len = sizeof(narenas);
  if (mallctl("arenas.narenas", &narenas, &len, nullptr, 0) != 0) return;
  for (unsigned i = 0; i < narenas; ++i) {
    char name[64];
    snprintf(name, sizeof(name), "arena.%u.dirty_decay_ms", i);
    mallctl(name, nullptr, nullptr, &v, sizeof(v));  // fails for arenas not made yet: they take the default above
  }
}
}
