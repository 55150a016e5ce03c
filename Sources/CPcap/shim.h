#ifndef BLUETAPE_CPCAP_SHIM_H
#define BLUETAPE_CPCAP_SHIM_H
#include <dlfcn.h>
#include <pcap/pcap.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/types.h>

/* libpcap's functions this project calls. The library is opened when a pcap or pcapng file is
   first read or written, not linked: on Debian it brings eight more libraries (D-Bus, systemd,
   libgcrypt, …), and loading them took a millisecond of every run, most of which read btsnoop. */
struct bluetape_pcap {
    __typeof__(pcap_open_offline_with_tstamp_precision) *_Nonnull open_offline;
    __typeof__(pcap_fopen_offline_with_tstamp_precision) *_Nonnull fopen_offline;
    __typeof__(pcap_open_dead_with_tstamp_precision) *_Nonnull open_dead;
    __typeof__(pcap_create) *_Nonnull create;
    __typeof__(pcap_set_snaplen) *_Nonnull set_snaplen;
    __typeof__(pcap_set_immediate_mode) *_Nonnull set_immediate_mode;
    __typeof__(pcap_activate) *_Nonnull activate;
    __typeof__(pcap_setnonblock) *_Nonnull setnonblock;
    __typeof__(pcap_get_selectable_fd) *_Nonnull get_selectable_fd;
    __typeof__(pcap_findalldevs) *_Nonnull findalldevs;
    __typeof__(pcap_freealldevs) *_Nonnull freealldevs;
    __typeof__(pcap_datalink) *_Nonnull datalink;
    __typeof__(pcap_snapshot) *_Nonnull snapshot;
    __typeof__(pcap_major_version) *_Nonnull major_version;
    __typeof__(pcap_file) *_Nonnull file;
    __typeof__(pcap_next_ex) *_Nonnull next_ex;
    __typeof__(pcap_geterr) *_Nonnull geterr;
    __typeof__(pcap_close) *_Nonnull close;
    __typeof__(pcap_dump_open) *_Nonnull dump_open;
    __typeof__(pcap_dump_fopen) *_Nonnull dump_fopen;
    __typeof__(pcap_dump) *_Nonnull dump;
    __typeof__(pcap_dump_flush) *_Nonnull dump_flush;
    __typeof__(pcap_dump_close) *_Nonnull dump_close;
};

/* Opens libpcap and returns its functions; NULL when the library or one of its functions cannot
   be found (then `bluetape_pcap_error()` says why). Called once, from a Swift `static let`. */
static inline const struct bluetape_pcap *bluetape_pcap_load(void) {
    static struct bluetape_pcap table;
#if defined(__APPLE__)
    void *library = dlopen("/usr/lib/libpcap.A.dylib", RTLD_NOW | RTLD_LOCAL);
#else
    /* Debian's name for libpcap 1.x, then upstream's, then the development link. */
    void *library = dlopen("libpcap.so.0.8", RTLD_NOW | RTLD_LOCAL);
    if (!library) library = dlopen("libpcap.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!library) library = dlopen("libpcap.so", RTLD_NOW | RTLD_LOCAL);
#endif
    if (!library) return NULL;
#define BLUETAPE_PCAP_SYMBOL(field, name) \
    if (!(table.field = (__typeof__(table.field))dlsym(library, #name))) return NULL;
    BLUETAPE_PCAP_SYMBOL(open_offline, pcap_open_offline_with_tstamp_precision)
    BLUETAPE_PCAP_SYMBOL(fopen_offline, pcap_fopen_offline_with_tstamp_precision)
    BLUETAPE_PCAP_SYMBOL(open_dead, pcap_open_dead_with_tstamp_precision)
    BLUETAPE_PCAP_SYMBOL(create, pcap_create)
    BLUETAPE_PCAP_SYMBOL(set_snaplen, pcap_set_snaplen)
    BLUETAPE_PCAP_SYMBOL(set_immediate_mode, pcap_set_immediate_mode)
    BLUETAPE_PCAP_SYMBOL(activate, pcap_activate)
    BLUETAPE_PCAP_SYMBOL(setnonblock, pcap_setnonblock)
    BLUETAPE_PCAP_SYMBOL(get_selectable_fd, pcap_get_selectable_fd)
    BLUETAPE_PCAP_SYMBOL(findalldevs, pcap_findalldevs)
    BLUETAPE_PCAP_SYMBOL(freealldevs, pcap_freealldevs)
    BLUETAPE_PCAP_SYMBOL(datalink, pcap_datalink)
    BLUETAPE_PCAP_SYMBOL(snapshot, pcap_snapshot)
    BLUETAPE_PCAP_SYMBOL(major_version, pcap_major_version)
    BLUETAPE_PCAP_SYMBOL(file, pcap_file)
    BLUETAPE_PCAP_SYMBOL(next_ex, pcap_next_ex)
    BLUETAPE_PCAP_SYMBOL(geterr, pcap_geterr)
    BLUETAPE_PCAP_SYMBOL(close, pcap_close)
    BLUETAPE_PCAP_SYMBOL(dump_open, pcap_dump_open)
    BLUETAPE_PCAP_SYMBOL(dump_fopen, pcap_dump_fopen)
    BLUETAPE_PCAP_SYMBOL(dump, pcap_dump)
    BLUETAPE_PCAP_SYMBOL(dump_flush, pcap_dump_flush)
    BLUETAPE_PCAP_SYMBOL(dump_close, pcap_dump_close)
#undef BLUETAPE_PCAP_SYMBOL
    return &table;
}

/* The reason the last load failed. */
static inline const char *bluetape_pcap_error(void) {
    const char *reason = dlerror();
    return reason ? reason : "unknown reason";
}

/* A FILE* whose reads come from a callback, so that libpcap can read a capture from any stream
   (standard input after its first bytes were sniffed, a gzip'd file, an archive member). */
typedef long bluetape_read_function(void *cookie, char *buffer, size_t size);
/* Only "where am I" (offset 0 from the current position) is answered: libpcap never seeks. */
typedef int bluetape_seek_function(void *cookie, int64_t *offset, int whence);
typedef int bluetape_close_function(void *cookie);

#if defined(__linux__)
#if defined(__USE_GNU)
static inline FILE *bluetape_fopen_stream(void *cookie, bluetape_read_function *read, bluetape_seek_function *seek,
                                          bluetape_close_function *close) {
    cookie_io_functions_t functions = {(cookie_read_function_t *)read, NULL, (cookie_seek_function_t *)seek,
                                       (cookie_close_function_t *)close};
    return fopencookie(cookie, "rb", functions);
}
#else
/* glibc's fopencookie, declared with a structure of the same layout as cookie_io_functions_t
   (four function pointers), which stdio.h declares only with _GNU_SOURCE. */
typedef struct {
    bluetape_read_function *read;
    void *write;
    bluetape_seek_function *seek;
    bluetape_close_function *close;
} bluetape_cookie_functions;
extern FILE *fopencookie(void *cookie, const char *mode, bluetape_cookie_functions functions);
static inline FILE *bluetape_fopen_stream(void *cookie, bluetape_read_function *read, bluetape_seek_function *seek,
                                          bluetape_close_function *close) {
    bluetape_cookie_functions functions = {read, NULL, seek, close};
    return fopencookie(cookie, "rb", functions);
}
#endif
#elif defined(__APPLE__)
struct bluetape_apple_cookie {
    void *cookie;
    bluetape_read_function *read;
    bluetape_seek_function *seek;
    bluetape_close_function *close;
};
static inline int bluetape_apple_read(void *cookie, char *buffer, int size) {
    struct bluetape_apple_cookie *c = cookie;
    return (int)c->read(c->cookie, buffer, (size_t)size);
}
static inline fpos_t bluetape_apple_seek(void *cookie, fpos_t offset, int whence) {
    struct bluetape_apple_cookie *c = cookie;
    int64_t position = offset;
    return c->seek(c->cookie, &position, whence) == 0 ? (fpos_t)position : -1;
}
static inline int bluetape_apple_close(void *cookie) {
    struct bluetape_apple_cookie *c = cookie;
    int result = c->close(c->cookie);
    free(c);
    return result;
}
/* BSD's funopen, with the callbacks above adapting its int sizes. */
static inline FILE *bluetape_fopen_stream(void *cookie, bluetape_read_function *read, bluetape_seek_function *seek,
                                          bluetape_close_function *close) {
    struct bluetape_apple_cookie *c = malloc(sizeof *c);
    if (!c) return NULL;
    c->cookie = cookie;
    c->read = read;
    c->seek = seek;
    c->close = close;
    FILE *file = funopen(c, bluetape_apple_read, NULL, bluetape_apple_seek, bluetape_apple_close);
    if (!file) free(c);
    return file;
}
#endif
#endif
