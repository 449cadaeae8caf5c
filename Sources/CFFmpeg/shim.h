#ifndef VOICEJOURNAL_CFFMPEG_SHIM_H
#define VOICEJOURNAL_CFFMPEG_SHIM_H
/* FFmpeg 5.1 (Debian 12): demuxing and decoding what libsndfile cannot read. Swift cannot
   import function-like macros, so the few the decoder needs are wrapped here. */
#include <errno.h>
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/avutil.h>
#include <libavutil/channel_layout.h>
#include <libavutil/error.h>
#include <libavutil/samplefmt.h>

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
/* Libraries never print: FFmpeg's own log lines (to stderr) are switched off. */
static inline void cffmpeg_silence_logging(void) { av_log_set_level(AV_LOG_QUIET); }
/* av_err2str without its compound literal: FFmpeg's text for an error code into `buffer`. */
static inline const char *cffmpeg_error_text(int code, char *buffer, size_t size) {
    if (av_strerror(code, buffer, size) < 0) snprintf(buffer, size, "FFmpeg error %d", code);
    return buffer;
}

#endif
