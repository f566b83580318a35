#pragma once
// Colour difference for palette tests: sRGB (IEC 61966-2-1, D65) to CIE L*a*b*, the CIEDE2000
// difference (Sharma, Wu & Dalal 2005, "The CIEDE2000 color-difference formula: implementation
// notes, supplementary test data, and mathematical observations"), and the dichromacy
// simulations of Machado, Oliveira & Fernandes 2009 (severity 1.0), applied in linear RGB.

#include <QColor>

namespace astrolabe::test {

struct Lab {
    double l = 0, a = 0, b = 0;
};

enum class Vision { Normal, Deuteranopia, Protanopia };

/// L*a*b* (D65 white) of an sRGB colour as someone with the given vision sees it.
Lab toLab(const QColor& color, Vision vision = Vision::Normal);
/// CIEDE2000 with kL = kC = kH = 1.
double deltaE2000(const Lab& x, const Lab& y);

} // namespace astrolabe::test
