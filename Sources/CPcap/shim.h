#ifndef BLUETAPE_CPCAP_SHIM_H
#define BLUETAPE_CPCAP_SHIM_H
#include <pcap/pcap.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/types.h>

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
