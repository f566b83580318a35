#include "export/NumberFormat.h"

#include <charconv>

namespace astrolabe {

void appendScaled(std::string& out, int64_t value, int digits) {
    uint64_t magnitude =
        value < 0 ? 0 - static_cast<uint64_t>(value) : static_cast<uint64_t>(value);
    if (value < 0)
        out += '-';
    uint64_t scale = 1;
    for (int i = 0; i < digits; ++i)
        scale *= 10;
    char buf[24];
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, magnitude / scale);
    (void)ec;
    out.append(buf, end);
    uint64_t frac = magnitude % scale;
    if (frac == 0)
        return;
    char digitsBuf[20];
    for (int i = digits - 1; i >= 0; --i) {
        digitsBuf[i] = static_cast<char>('0' + frac % 10);
        frac /= 10;
    }
    int len = digits;
    while (len > 0 && digitsBuf[len - 1] == '0')
        --len;
    out += '.';
    out.append(digitsBuf, static_cast<size_t>(len));
}

} // namespace astrolabe
