#include <librsvg/rsvg.h>
#include <cairo.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/// PNG bytes grown by cairo's write callback (malloc'ed; the caller frees `data`).
typedef struct {
    unsigned char *data;
    size_t length;
    size_t capacity;
} report_png_buffer;

static cairo_status_t report_png_append(void *closure, const unsigned char *data, unsigned int length) {
    report_png_buffer *buffer = (report_png_buffer *)closure;
    if (buffer->length + length > buffer->capacity) {
        size_t capacity = buffer->capacity ? buffer->capacity : 65536;
        while (capacity < buffer->length + length) capacity *= 2;
        unsigned char *grown = (unsigned char *)realloc(buffer->data, capacity);
        if (!grown) return CAIRO_STATUS_NO_MEMORY;
        buffer->data = grown;
        buffer->capacity = capacity;
    }
    memcpy(buffer->data + buffer->length, data, length);
    buffer->length += length;
    return CAIRO_STATUS_SUCCESS;
}

/// Renders an SVG document to PNG bytes with librsvg and cairo, `scale` times its intrinsic
/// size (`fallback_width` × `fallback_height` pixels when it states none), on white. Returns 0
/// and fills `out`, or a non-zero code with a message in `message` (a buffer of `message_size`).
/// Everything GLib or cairo allocated is released here: the Swift side sees bytes and a message.
static inline int report_rsvg_render_png(const char *svg, size_t svg_length, double scale,
                                         double fallback_width, double fallback_height,
                                         report_png_buffer *out, char *message, size_t message_size) {
    GError *error = NULL;
    RsvgHandle *handle = rsvg_handle_new_from_data((const guint8 *)svg, svg_length, &error);
    if (!handle) {
        snprintf(message, message_size, "%s", error ? error->message : "librsvg could not read the SVG");
        if (error) g_error_free(error);
        return 1;
    }
    gdouble width = 0, height = 0;
    if (!rsvg_handle_get_intrinsic_size_in_pixels(handle, &width, &height) || width <= 0 || height <= 0) {
        width = fallback_width;
        height = fallback_height;
    }
    int pixel_width = (int)ceil(width * scale), pixel_height = (int)ceil(height * scale);
    cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, pixel_width, pixel_height);
    cairo_t *cairo = cairo_create(surface);
    cairo_set_source_rgb(cairo, 1, 1, 1);
    cairo_paint(cairo);
    RsvgRectangle viewport = {0, 0, width * scale, height * scale};
    int code = 0;
    if (!rsvg_handle_render_document(handle, cairo, &viewport, &error)) {
        snprintf(message, message_size, "%s", error ? error->message : "librsvg could not draw the SVG");
        if (error) g_error_free(error);
        code = 2;
    } else {
        cairo_surface_flush(surface);
        cairo_status_t status = cairo_surface_write_to_png_stream(surface, report_png_append, out);
        if (status != CAIRO_STATUS_SUCCESS) {
            snprintf(message, message_size, "cairo: %s", cairo_status_to_string(status));
            code = 3;
        }
    }
    cairo_destroy(cairo);
    cairo_surface_destroy(surface);
    g_object_unref(handle);
    return code;
}
