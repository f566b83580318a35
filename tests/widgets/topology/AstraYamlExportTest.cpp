#include "topology/AstraYamlExport.h"

#include "TestPaths.h"
#include "core/Error.h"
#include "topology/TopologyPresets.h"

#include <QFile>
#include <QRegularExpression>
#include <QStringList>
#include <gtest/gtest.h>

using namespace astrolabe;
using namespace astrolabe::widgets;

namespace {
// The values of one flow-style key ("bandwidth: [ 400.0 ]  # GB/s").
QStringList flowValues(const QString& yaml, const QString& key) {
    const QRegularExpression re(QStringLiteral("^%1:\\s*\\[([^\\]]*)\\]").arg(key),
                                QRegularExpression::MultilineOption);
    const QRegularExpressionMatch m = re.match(yaml);
    QStringList values;
    if (!m.hasMatch())
        return values;
    for (const QString& v : m.captured(1).split(QLatin1Char(','), Qt::SkipEmptyParts))
        values << v.trimmed();
    return values;
}
} // namespace

TEST(AstraYamlExport, WritesFlowListsInAstraUnits) {
    PlatformSpec p;
    p.dimensions = {astraDimension(BlockKind::Ring, 8, 100, 500),
                    DimensionSpec{BlockKind::Switch, 4, 25.0 * 1073741824.0 / 2, 1000.5}};
    EXPECT_EQ(astraNetworkYaml(p), "topology: [ Ring, Switch ]\n"
                                   "npus_count: [ 8, 4 ]\n"
                                   "bandwidth: [ 100, 12.5 ]  # GB/s (ASTRA-sim: 1 GB = 2^30 B)\n"
                                   "latency: [ 500, 1000.5 ]  # ns\n");
}

TEST(AstraYamlExport, HgxPresetMatchesTheValidatedReferenceFile) {
    const QString path = QString::fromStdString(ASTROLABE_SHARED_DIR) +
                         QStringLiteral("/reference/astra-sim/examples/network/analytical/"
                                        "HGX-H100-validated.yml");
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        GTEST_SKIP() << "reference file not available: " << path.toStdString();
    const QString reference = QString::fromUtf8(file.readAll());
    const TopologyPreset* hgx = findTopologyPreset(QStringLiteral("HGX-H100 (Switch 8)"));
    ASSERT_NE(hgx, nullptr);
    const QString ours = QString::fromStdString(astraNetworkYaml(hgx->platform));
    for (const QString& key : {QStringLiteral("topology"), QStringLiteral("npus_count"),
                               QStringLiteral("bandwidth"), QStringLiteral("latency")}) {
        const QStringList a = flowValues(reference, key);
        const QStringList b = flowValues(ours, key);
        ASSERT_EQ(a.size(), b.size()) << key.toStdString();
        for (int i = 0; i < a.size(); ++i) {
            bool numeric = false;
            const double x = a[i].toDouble(&numeric);
            if (numeric)
                EXPECT_DOUBLE_EQ(x, b[i].toDouble()) << key.toStdString();
            else
                EXPECT_EQ(a[i], b[i]) << key.toStdString();
        }
    }
}

TEST(AstraYamlExport, RefusesAnInvalidPlatform) {
    PlatformSpec p;
    p.dimensions = {astraDimension(BlockKind::Ring, 1, 0, 5)};
    try {
        astraNetworkYaml(p);
        FAIL() << "an invalid platform was exported";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::Validation);
        EXPECT_NE(e.message().find("size: expected 2 or more NPUs, found"), std::string::npos);
        EXPECT_NE(e.message().find("bandwidth: expected 1000 B/s or more, found 0"),
                  std::string::npos);
    }
    EXPECT_THROW(astraNetworkYaml(PlatformSpec{}), Error);
}
