#include "ColorDifference.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace astrolabe::test {

namespace {
constexpr double kPi = std::numbers::pi;

double linear(double channel) {
    return channel <= 0.04045 ? channel / 12.92 : std::pow((channel + 0.055) / 1.055, 2.4);
}

double labF(double t) {
    constexpr double epsilon = 216.0 / 24389.0;
    constexpr double kappa = 24389.0 / 27.0;
    return t > epsilon ? std::cbrt(t) : (kappa * t + 16.0) / 116.0;
}

double degrees(double angleRadians) {
    return angleRadians * 180.0 / kPi;
}
double radians(double angleDegrees) {
    return angleDegrees * kPi / 180.0;
}

// Machado et al. 2009, Table 1, severity 1.0: linear RGB -> simulated linear RGB.
constexpr double kDeuteranopia[3][3] = {{0.367322, 0.860646, -0.227968},
                                        {0.280085, 0.672501, 0.047413},
                                        {-0.011820, 0.042940, 0.968881}};
constexpr double kProtanopia[3][3] = {{0.152286, 1.052583, -0.204868},
                                      {0.114503, 0.786281, 0.099216},
                                      {-0.003882, -0.048116, 1.051998}};
} // namespace

Lab toLab(const QColor& color, Vision vision) {
    double rgb[3] = {linear(color.redF()), linear(color.greenF()), linear(color.blueF())};
    if (vision != Vision::Normal) {
        const auto& m = vision == Vision::Deuteranopia ? kDeuteranopia : kProtanopia;
        double simulated[3];
        for (int i = 0; i < 3; ++i)
            simulated[i] =
                std::clamp(m[i][0] * rgb[0] + m[i][1] * rgb[1] + m[i][2] * rgb[2], 0.0, 1.0);
        std::copy(simulated, simulated + 3, rgb);
    }
    // sRGB primaries, D65 white (IEC 61966-2-1).
    const double x = 0.4124564 * rgb[0] + 0.3575761 * rgb[1] + 0.1804375 * rgb[2];
    const double y = 0.2126729 * rgb[0] + 0.7151522 * rgb[1] + 0.0721750 * rgb[2];
    const double z = 0.0193339 * rgb[0] + 0.1191920 * rgb[1] + 0.9503041 * rgb[2];
    const double fx = labF(x / 0.95047);
    const double fy = labF(y / 1.0);
    const double fz = labF(z / 1.08883);
    return {116.0 * fy - 16.0, 500.0 * (fx - fy), 200.0 * (fy - fz)};
}

double deltaE2000(const Lab& x, const Lab& y) {
    // Sharma et al. 2005, equations (1)-(22).
    const double c1 = std::hypot(x.a, x.b);
    const double c2 = std::hypot(y.a, y.b);
    const double cMean7 = std::pow((c1 + c2) / 2.0, 7.0);
    const double g = 0.5 * (1.0 - std::sqrt(cMean7 / (cMean7 + std::pow(25.0, 7.0))));
    const double a1 = (1.0 + g) * x.a;
    const double a2 = (1.0 + g) * y.a;
    const double cp1 = std::hypot(a1, x.b);
    const double cp2 = std::hypot(a2, y.b);
    const auto hue = [](double b, double a) {
        if (a == 0 && b == 0)
            return 0.0;
        const double h = degrees(std::atan2(b, a));
        return h < 0 ? h + 360.0 : h;
    };
    const double h1 = hue(x.b, a1);
    const double h2 = hue(y.b, a2);

    const double dL = y.l - x.l;
    const double dC = cp2 - cp1;
    double dh = 0;
    if (cp1 * cp2 != 0) {
        dh = h2 - h1;
        if (dh > 180)
            dh -= 360;
        else if (dh < -180)
            dh += 360;
    }
    const double dH = 2.0 * std::sqrt(cp1 * cp2) * std::sin(radians(dh / 2.0));

    const double lMean = (x.l + y.l) / 2.0;
    const double cMean = (cp1 + cp2) / 2.0;
    double hMean = h1 + h2;
    if (cp1 * cp2 != 0) {
        if (std::abs(h1 - h2) <= 180)
            hMean = (h1 + h2) / 2.0;
        else if (h1 + h2 < 360)
            hMean = (h1 + h2 + 360.0) / 2.0;
        else
            hMean = (h1 + h2 - 360.0) / 2.0;
    }
    const double t =
        1.0 - 0.17 * std::cos(radians(hMean - 30.0)) + 0.24 * std::cos(radians(2.0 * hMean)) +
        0.32 * std::cos(radians(3.0 * hMean + 6.0)) - 0.20 * std::cos(radians(4.0 * hMean - 63.0));
    const double dTheta = 30.0 * std::exp(-std::pow((hMean - 275.0) / 25.0, 2.0));
    const double cMeanP7 = std::pow(cMean, 7.0);
    const double rC = 2.0 * std::sqrt(cMeanP7 / (cMeanP7 + std::pow(25.0, 7.0)));
    const double sL =
        1.0 + 0.015 * std::pow(lMean - 50.0, 2.0) / std::sqrt(20.0 + std::pow(lMean - 50.0, 2.0));
    const double sC = 1.0 + 0.045 * cMean;
    const double sH = 1.0 + 0.015 * cMean * t;
    const double rT = -std::sin(radians(2.0 * dTheta)) * rC;
    const double l = dL / sL;
    const double c = dC / sC;
    const double h = dH / sH;
    return std::sqrt(l * l + c * c + h * h + rT * c * h);
}

} // namespace astrolabe::test
