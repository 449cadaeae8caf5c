/* Loads FFmpeg's libraries on first use; see cffmpeg.h for why. */
#include "cffmpeg.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The sonames of the major versions the headers describe (FFmpeg 5.1: avutil 57, avcodec 59,
   avformat 59): a library of another major version has other struct layouts. */
#define SONAME(name, major) "lib" #name ".so." #major
#define SONAME_OF(name, major) SONAME(name, major)

#define FUNCTIONS(X) \
    X(format, avformat_open_input) X(format, avformat_find_stream_info) X(format, avformat_close_input) \
    X(format, avformat_version) X(format, av_find_best_stream) X(format, av_read_frame) \
    X(format, av_probe_input_format3) X(format, avformat_alloc_context) \
    X(util, av_dict_set) X(util, av_dict_free) \
    X(codec, avcodec_alloc_context3) X(codec, avcodec_free_context) X(codec, avcodec_parameters_to_context) \
    X(codec, avcodec_open2) X(codec, avcodec_send_packet) X(codec, avcodec_receive_frame) \
    X(codec, av_packet_alloc) X(codec, av_packet_free) X(codec, av_packet_unref) \
    X(util, av_frame_alloc) X(util, av_frame_free) X(util, av_frame_unref) \
    X(util, av_sample_fmt_is_planar) X(util, av_get_packed_sample_fmt) X(util, av_log_set_level) \
    X(util, av_strerror)

#define POINTER(library, name) static __typeof__(&name) bound_##name;
FUNCTIONS(POINTER)

static pthread_once_t once = PTHREAD_ONCE_INIT;
static bool loaded;
static char load_error[512];

static void *open_library(const char *soname) {
    void *handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (!handle && !load_error[0]) {
        const char *why = dlerror();
        snprintf(load_error, sizeof load_error, "%s", why ? why : soname);
    }
    return handle;
}

static void load(void) {
    void *util = open_library(SONAME_OF(avutil, LIBAVUTIL_VERSION_MAJOR));
    void *codec = open_library(SONAME_OF(avcodec, LIBAVCODEC_VERSION_MAJOR));
    void *format = open_library(SONAME_OF(avformat, LIBAVFORMAT_VERSION_MAJOR));
    if (!util || !codec || !format) return;
#define BIND(library, name) \
    bound_##name = (__typeof__(&name))dlsym(library, #name); \
    if (!bound_##name) { snprintf(load_error, sizeof load_error, "%s is missing from FFmpeg's libraries", #name); return; }
    FUNCTIONS(BIND)
    loaded = true;
}

bool cffmpeg_load(void) {
    pthread_once(&once, load);
    return loaded;
}

const char *cffmpeg_load_error(void) {
    cffmpeg_load();
    return loaded ? NULL : load_error;
}

int cffmpeg_avformat_open_input(AVFormatContext **context, const char *url, const AVInputFormat *format, AVDictionary **options) {
    return bound_avformat_open_input(context, url, format, options);
}
int cffmpeg_avformat_find_stream_info(AVFormatContext *context, AVDictionary **options) {
    return bound_avformat_find_stream_info(context, options);
}
void cffmpeg_avformat_close_input(AVFormatContext **context) { bound_avformat_close_input(context); }
unsigned cffmpeg_avformat_version(void) { return bound_avformat_version(); }
int cffmpeg_av_find_best_stream(AVFormatContext *context, enum AVMediaType type, int wanted, int related,
                                const AVCodec **decoder, int flags) {
    return bound_av_find_best_stream(context, type, wanted, related, decoder, flags);
}
int cffmpeg_av_read_frame(AVFormatContext *context, AVPacket *packet) { return bound_av_read_frame(context, packet); }
AVCodecContext *cffmpeg_avcodec_alloc_context3(const AVCodec *codec) { return bound_avcodec_alloc_context3(codec); }
void cffmpeg_avcodec_free_context(AVCodecContext **context) { bound_avcodec_free_context(context); }
int cffmpeg_avcodec_parameters_to_context(AVCodecContext *context, const AVCodecParameters *parameters) {
    return bound_avcodec_parameters_to_context(context, parameters);
}
int cffmpeg_avcodec_open2(AVCodecContext *context, const AVCodec *codec, AVDictionary **options) {
    return bound_avcodec_open2(context, codec, options);
}
int cffmpeg_avcodec_send_packet(AVCodecContext *context, const AVPacket *packet) { return bound_avcodec_send_packet(context, packet); }
int cffmpeg_avcodec_receive_frame(AVCodecContext *context, AVFrame *frame) { return bound_avcodec_receive_frame(context, frame); }
AVPacket *cffmpeg_av_packet_alloc(void) { return bound_av_packet_alloc(); }
void cffmpeg_av_packet_free(AVPacket **packet) { bound_av_packet_free(packet); }
void cffmpeg_av_packet_unref(AVPacket *packet) { bound_av_packet_unref(packet); }
AVFrame *cffmpeg_av_frame_alloc(void) { return bound_av_frame_alloc(); }
void cffmpeg_av_frame_free(AVFrame **frame) { bound_av_frame_free(frame); }
void cffmpeg_av_frame_unref(AVFrame *frame) { bound_av_frame_unref(frame); }
int cffmpeg_av_sample_fmt_is_planar(enum AVSampleFormat format) { return bound_av_sample_fmt_is_planar(format); }
enum AVSampleFormat cffmpeg_av_get_packed_sample_fmt(enum AVSampleFormat format) { return bound_av_get_packed_sample_fmt(format); }
void cffmpeg_silence_logging(void) { bound_av_log_set_level(AV_LOG_QUIET); }
const char *cffmpeg_error_text(int code, char *buffer, size_t size) {
    if (bound_av_strerror(code, buffer, size) < 0) snprintf(buffer, size, "FFmpeg error %d", code);
    return buffer;
}

const AVInputFormat *cffmpeg_probe_bytes(const uint8_t *bytes, int size, int *score) {
    *score = 0;
    if (size <= 0) return NULL;
    /* The probes may read up to AVPROBE_PADDING_SIZE bytes past the end: zeros. */
    unsigned char *padded = calloc((size_t)size + AVPROBE_PADDING_SIZE, 1);
    if (!padded) return NULL;
    memcpy(padded, bytes, (size_t)size);
    AVProbeData probe = { .filename = "", .buf = padded, .buf_size = size, .mime_type = NULL };
    const AVInputFormat *format = bound_av_probe_input_format3(&probe, 1, score);
    free(padded);
    return format;
}

struct cffmpeg_guard {
    struct timespec deadline;
    bool opened;
    int (*open_default)(AVFormatContext *, AVIOContext **, const char *, int, AVDictionary **);
};

cffmpeg_guard *cffmpeg_guard_new(void) {
    cffmpeg_guard *guard = calloc(1, sizeof *guard);
    if (guard) cffmpeg_guard_arm(guard, 10);
    return guard;
}

void cffmpeg_guard_free(cffmpeg_guard *guard) { free(guard); }

void cffmpeg_guard_arm(cffmpeg_guard *guard, double seconds) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    long long whole = (long long)seconds;
    long long nanos = now.tv_nsec + (long long)((seconds - (double)whole) * 1e9);
    guard->deadline.tv_sec = now.tv_sec + whole + nanos / 1000000000LL;
    guard->deadline.tv_nsec = nanos % 1000000000LL;
}

/* FFmpeg's interrupt callback: non-zero stops the blocking step (AVERROR_EXIT). */
static int past_deadline(void *opaque) {
    const cffmpeg_guard *guard = opaque;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return now.tv_sec > guard->deadline.tv_sec
        || (now.tv_sec == guard->deadline.tv_sec && now.tv_nsec >= guard->deadline.tv_nsec);
}

/* io_open for the context: the first open is the file itself; any later one would be a
   demuxer reaching for another file or URL named inside this one, and is refused. */
static int open_once(AVFormatContext *context, AVIOContext **pb, const char *url, int flags, AVDictionary **options) {
    cffmpeg_guard *guard = context->opaque;
    if (!guard || guard->opened || !guard->open_default) return AVERROR(EPERM);
    guard->opened = true;
    return guard->open_default(context, pb, url, flags, options);
}

int cffmpeg_open_guarded(AVFormatContext **context, const char *path, const AVInputFormat *format,
                         const char *formats, cffmpeg_guard *guard) {
    AVFormatContext *opened = bound_avformat_alloc_context();
    if (!opened) return AVERROR(ENOMEM);
    opened->interrupt_callback.callback = past_deadline;
    opened->interrupt_callback.opaque = guard;
    guard->opened = false;
    guard->open_default = opened->io_open;
    opened->opaque = guard;
    opened->io_open = open_once;
    AVDictionary *options = NULL;
    bound_av_dict_set(&options, "protocol_whitelist", "file", 0);
    bound_av_dict_set(&options, "format_whitelist", formats, 0);
    /* avformat_open_input frees the context itself when it fails. */
    int status = bound_avformat_open_input(&opened, path, format, &options);
    bound_av_dict_free(&options);
    *context = status == 0 ? opened : NULL;
    return status;
}
