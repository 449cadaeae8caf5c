#ifndef VOICEJOURNAL_CFFMPEG_H
#define VOICEJOURNAL_CFFMPEG_H
/* FFmpeg 5.1 (Debian 12): demuxing and decoding what libsndfile cannot read.

   The libraries are loaded when first needed (cffmpeg_load), not linked: libavformat and
   libavcodec pull in some 130 shared libraries, whose loading and relocation would add tens
   of milliseconds to every start of the command, `search` and `--version` included, while
   only M4A/MP4/WebM-like files need them. Each FFmpeg function used is reached through a
   cffmpeg_ wrapper of the same signature. The headers give the types and struct layouts. */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/avutil.h>
#include <libavutil/channel_layout.h>
#include <libavutil/error.h>
#include <libavutil/samplefmt.h>

/* Loads libavutil, libavcodec and libavformat (the sonames these headers are for) and binds
   every function below; true when they are usable. Safe to call from any thread, any number
   of times: the work is done once. */
bool cffmpeg_load(void);
/* Why cffmpeg_load failed (dlerror's text), or NULL when it did not. */
const char *cffmpeg_load_error(void);

int cffmpeg_avformat_open_input(AVFormatContext **context, const char *url, const AVInputFormat *format, AVDictionary **options);

/* The demuxer whose probe claims `size` bytes (a file's first bytes) most surely, judged by the
   bytes alone (no file name), with its score (0-100) in `score`; NULL when none claims them. */
const AVInputFormat *cffmpeg_probe_bytes(const uint8_t *bytes, int size, int *score);

/* What keeps one opened file from reaching anything else: the demuxer may open exactly one
   input (the file itself: a playlist's or concat list's entries are refused), and every
   blocking step gives up once the deadline has passed. Owned by the caller, who frees it
   after closing the context that uses it. */
typedef struct cffmpeg_guard cffmpeg_guard;
cffmpeg_guard *cffmpeg_guard_new(void);
void cffmpeg_guard_free(cffmpeg_guard *guard);
/* Gives the next blocking steps `seconds` from now. */
void cffmpeg_guard_arm(cffmpeg_guard *guard, double seconds);

/* Opens the local file `path` with the demuxer `format` only: the protocol whitelist is
   "file", the format whitelist `formats` (comma-separated demuxer names), nested opens are
   refused and `guard`'s deadline interrupts blocking reads. `guard` must outlive `*context`. */
int cffmpeg_open_guarded(AVFormatContext **context, const char *path, const AVInputFormat *format,
                         const char *formats, cffmpeg_guard *guard);
int cffmpeg_avformat_find_stream_info(AVFormatContext *context, AVDictionary **options);
void cffmpeg_avformat_close_input(AVFormatContext **context);
unsigned cffmpeg_avformat_version(void);
int cffmpeg_av_find_best_stream(AVFormatContext *context, enum AVMediaType type, int wanted, int related,
                                const AVCodec **decoder, int flags);
int cffmpeg_av_read_frame(AVFormatContext *context, AVPacket *packet);
AVCodecContext *cffmpeg_avcodec_alloc_context3(const AVCodec *codec);
void cffmpeg_avcodec_free_context(AVCodecContext **context);
int cffmpeg_avcodec_parameters_to_context(AVCodecContext *context, const AVCodecParameters *parameters);
int cffmpeg_avcodec_open2(AVCodecContext *context, const AVCodec *codec, AVDictionary **options);
int cffmpeg_avcodec_send_packet(AVCodecContext *context, const AVPacket *packet);
int cffmpeg_avcodec_receive_frame(AVCodecContext *context, AVFrame *frame);
AVPacket *cffmpeg_av_packet_alloc(void);
void cffmpeg_av_packet_free(AVPacket **packet);
void cffmpeg_av_packet_unref(AVPacket *packet);
AVFrame *cffmpeg_av_frame_alloc(void);
void cffmpeg_av_frame_free(AVFrame **frame);
void cffmpeg_av_frame_unref(AVFrame *frame);
int cffmpeg_av_sample_fmt_is_planar(enum AVSampleFormat format);
enum AVSampleFormat cffmpeg_av_get_packed_sample_fmt(enum AVSampleFormat format);
/* Libraries never print: FFmpeg's own log lines (to stderr) are switched off. */
void cffmpeg_silence_logging(void);
/* av_err2str without its compound literal: FFmpeg's text for an error code into `buffer`. */
const char *cffmpeg_error_text(int code, char *buffer, size_t size);

/* Swift cannot import function-like macros: */
/* AVERROR(EAGAIN): the decoder wants another packet before it can give a frame. */
static inline int cffmpeg_error_again(void) { return AVERROR(EAGAIN); }
/* AVERROR_EOF: the end of the input, or of the decoder's drained output. */
static inline int cffmpeg_error_eof(void) { return AVERROR_EOF; }
/* AVERROR_INVALIDDATA: a packet the decoder cannot make sense of. */
static inline int cffmpeg_error_invalid_data(void) { return AVERROR_INVALIDDATA; }
/* AV_NOPTS_VALUE: "no timestamp / unknown duration". */
static inline int64_t cffmpeg_no_timestamp(void) { return AV_NOPTS_VALUE; }
/* AV_TIME_BASE: the units of AVFormatContext.duration per second. */
static inline int64_t cffmpeg_time_base(void) { return AV_TIME_BASE; }
/* Channels of a decoded frame (the AVChannelLayout API of FFmpeg 5.1). */
static inline int cffmpeg_frame_channels(const AVFrame *frame) { return frame->ch_layout.nb_channels; }
/* Channels a stream declares. */
static inline int cffmpeg_parameters_channels(const AVCodecParameters *parameters) { return parameters->ch_layout.nb_channels; }

#endif
