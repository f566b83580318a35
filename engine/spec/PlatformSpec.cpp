#include "spec/PlatformSpec.h"

#include <algorithm>
#include <climits>
#include <cstdint>

namespace astrolabe {

int PlatformSpec::npuCount() const {
    // Saturating: four dimensions of 65,536 overflowed 64 bits to 0 NPUs.
    int64_t n = dimensions.empty() ? 0 : 1;
    for (const DimensionSpec& d : dimensions)
        n = d.size > 0 && n > INT32_MAX / d.size ? INT32_MAX : n * std::max(d.size, 0);
    return n > INT32_MAX ? INT32_MAX : static_cast<int>(n);
}

} // namespace astrolabe
