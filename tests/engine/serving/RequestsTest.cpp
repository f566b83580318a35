// Requests in: arrival processes and length distributions against their definitions, and the
// Azure and BurstGPT trace readers with their row-naming errors.
#include "serving/Requests.h"

#include "core/Error.h"

#include <cmath>
#include <functional>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace astrolabe;
using namespace astrolabe::serving;
using ::testing::AllOf;
using ::testing::HasSubstr;

namespace {

std::string errorOf(const std::function<void()>& f) {
    try {
        f();
    } catch (const Error& e) {
        return e.what();
    }
    return "no error";
}

double mean(const std::vector<double>& v) {
    double s = 0;
    for (double x : v)
        s += x;
    return s / double(v.size());
}

double cv(const std::vector<double>& v) {
    const double m = mean(v);
    double s = 0;
    for (double x : v)
        s += (x - m) * (x - m);
    return std::sqrt(s / double(v.size())) / m;
}

std::vector<double> gaps(const std::vector<Request>& r) {
    std::vector<double> out;
    for (size_t i = 1; i < r.size(); ++i)
        out.push_back(r[i].arrivalSeconds - r[i - 1].arrivalSeconds);
    return out;
}

} // namespace

TEST(ServingRequests, PoissonGapsAreExponentialWithMeanOneOverRate) {
    ServingSpec s;
    s.rate = 50;
    s.durationNs = 400e9; // about 20,000 requests: the mean within 2 %, cv within 3 %
    const std::vector<Request> r = syntheticRequests(s);
    EXPECT_NEAR(double(r.size()), 20000, 600);
    const std::vector<double> g = gaps(r);
    EXPECT_NEAR(mean(g), 1.0 / 50, 0.02 / 50);
    EXPECT_NEAR(cv(g), 1.0, 0.03);
    EXPECT_LT(r.back().arrivalSeconds, 400.0);
}

TEST(ServingRequests, GammaGapsHaveTheRequestedBurstiness) {
    ServingSpec s;
    s.arrival = "gamma";
    s.rate = 50;
    s.durationNs = 400e9;
    for (double burstiness : {0.5, 2.0}) {
        s.burstiness = burstiness;
        const std::vector<double> g = gaps(syntheticRequests(s));
        EXPECT_NEAR(mean(g), 1.0 / 50, 0.05 / 50) << burstiness;
        EXPECT_NEAR(cv(g), burstiness, 0.06 * burstiness) << burstiness;
    }
}

TEST(ServingRequests, LengthDistributionsKeepTheirMeansAndBounds) {
    std::mt19937_64 random(7);
    const LengthDistribution lognormal({"lognormal", 800, 0.6, 1, 1000000, {}}, "serving.input");
    const LengthDistribution uniform({"uniform", 0, 0, 100, 300, {}}, "serving.input");
    double sumLog = 0, sumUni = 0;
    int low = 300, high = 100;
    for (int i = 0; i < 40000; ++i) {
        sumLog += lognormal.sample(random);
        const int u = uniform.sample(random);
        sumUni += u;
        low = std::min(low, u);
        high = std::max(high, u);
    }
    EXPECT_NEAR(sumLog / 40000, 800, 0.02 * 800); // E = exp(mu + sigma^2 / 2) = mean
    EXPECT_NEAR(sumUni / 40000, 200, 1.0);
    EXPECT_EQ(low, 100);
    EXPECT_EQ(high, 300);
}

TEST(ServingRequests, PrefixReuseCachesThatFractionOfEachPrompt) {
    ServingSpec s;
    s.rate = 10;
    s.durationNs = 5e9;
    s.input = {"fixed", 1000, 0, 1, 4096, {}};
    s.prefixReuse = 0.25;
    for (const Request& r : syntheticRequests(s))
        EXPECT_EQ(r.cachedTokens, 250);
}

TEST(ServingRequests, AzureTraceTimesBecomeRelativeToTheFirstRequest) {
    const std::string text = "TIMESTAMP,ContextTokens,GeneratedTokens\n"
                             "2023-11-16 18:15:46.6805900,374,44\n"
                             "2023-11-16 18:15:50.9951690,396,109\n"
                             "2023-11-16 18:16:01.0000000,879,1\n";
    const std::vector<Request> r = parseRequestTrace(text, "azure.csv", "azure", 0, 0);
    ASSERT_EQ(r.size(), 3u);
    EXPECT_DOUBLE_EQ(r[0].arrivalSeconds, 0);
    EXPECT_NEAR(r[1].arrivalSeconds, 4.314579, 1e-6);
    EXPECT_NEAR(r[2].arrivalSeconds, 14.31941, 1e-6);
    EXPECT_EQ(r[1].promptTokens, 396);
    EXPECT_EQ(r[1].outputTokens, 109);
    // --duration 10 s keeps the first two, and says where it stopped reading.
    std::vector<std::string> warnings;
    EXPECT_EQ(parseRequestTrace(text, "azure.csv", "azure", 10, 0, &warnings).size(), 2u);
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_THAT(warnings[0], HasSubstr("azure.csv: read up to row 3: the rows from 4 on arrive "
                                       "14.319 s or more after the first, past "
                                       "serving.duration (10 s)"));
    // A spreadsheet's byte-order mark before the header is not part of its first name.
    EXPECT_EQ(parseRequestTrace("\xEF\xBB\xBF" + text, "azure.csv", "azure", 0, 0).size(), 3u);
}

// What no trace means is refused, with the row: a column named twice (which holds the lengths
// could only be guessed), seconds on one row and a date on the next (1.7e9 s apart), a day the
// month does not have.
TEST(ServingRequests, TracesThatCanOnlyBeGuessedAreRefused) {
    EXPECT_THAT(errorOf([] {
                    parseRequestTrace("TIMESTAMP,ContextTokens,ContextTokens,GeneratedTokens\n"
                                      "1,100,999999,10\n",
                                      "t.csv", "azure", 0, 0);
                }),
                AllOf(HasSubstr("t.csv:1"),
                      HasSubstr("the header names \"ContextTokens\" twice (columns 2 and 3)")));
    const std::string header = "TIMESTAMP,ContextTokens,GeneratedTokens\n";
    EXPECT_THAT(errorOf([&] {
                    parseRequestTrace(header + "1,100,10\n2023-11-16 18:15:46,100,10\n", "t.csv",
                                      "azure", 0, 0);
                }),
                AllOf(HasSubstr("t.csv:3"),
                      HasSubstr("the timestamps mix seconds and dates: this row has a date")));
    EXPECT_THAT(errorOf([&] {
                    parseRequestTrace(header + "2023-02-31 10:00:00,100,10\n", "t.csv", "azure", 0,
                                      0);
                }),
                AllOf(HasSubstr("t.csv:2"), HasSubstr("expected a timestamp")));
    EXPECT_NO_THROW(
        parseRequestTrace(header + "2024-02-29 10:00:00,100,10\n", "t.csv", "azure", 0, 0))
        << "2024 is a leap year";
    // A value is quoted once.
    EXPECT_THAT(errorOf([&] { parseRequestTrace(header + "1,-100,10\n", "t.csv", "azure", 0, 0); }),
                AllOf(HasSubstr("found \"-100\""), Not(HasSubstr("\"\"-100"))));
}

TEST(ServingRequests, BurstGptSkipsFailedRequestsAndSaysHowMany) {
    const std::string text =
        "Timestamp,Model,Request tokens,Response tokens,Total tokens,Log Type\n"
        "5,ChatGPT,472,18,490,Conversation log\n"
        "45,ChatGPT,1087,0,1087,Conversation log\n"
        "118,GPT-4,417,276,693,Conversation log\n";
    std::vector<std::string> warnings;
    const std::vector<Request> r =
        parseRequestTrace(text, "burst.csv", "burstgpt", 0, 0, &warnings);
    ASSERT_EQ(r.size(), 2u);
    EXPECT_DOUBLE_EQ(r[1].arrivalSeconds, 113);
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_THAT(warnings[0], HasSubstr("skipped 1 failed request"));
}

TEST(ServingRequests, BadTraceRowsAreNamed) {
    const std::string header = "TIMESTAMP,ContextTokens,GeneratedTokens\n";
    EXPECT_THAT(errorOf([&] {
                    parseRequestTrace(header + "10,100,5\n9.5,100,5\n", "t.csv", "azure", 0, 0);
                }),
                AllOf(HasSubstr("t.csv:3"), HasSubstr("row 3"), HasSubstr("backwards")));
    EXPECT_THAT(errorOf([&] { parseRequestTrace(header + "10,0,5\n", "t.csv", "azure", 0, 0); }),
                AllOf(HasSubstr("t.csv:2"), HasSubstr("zero-length prompt")));
    EXPECT_THAT(errorOf([&] { parseRequestTrace(header + "10,12x,5\n", "t.csv", "azure", 0, 0); }),
                AllOf(HasSubstr("row 2"), HasSubstr("12x")));
    EXPECT_THAT(
        errorOf([&] { parseRequestTrace("time,prompt,output\n1,2,3\n", "t.csv", "azure", 0, 0); }),
        AllOf(HasSubstr("t.csv:1"), HasSubstr("ContextTokens")));
    EXPECT_THAT(errorOf([&] { parseRequestTrace(header, "t.csv", "azure", 0, 0); }),
                HasSubstr("no request"));
}

TEST(ServingRequests, BadDistributionsAreRefusedWithTheirKey) {
    EXPECT_THAT(errorOf([] {
                    LengthDistribution({"fixed", 0, 0, 1, 10, {}}, "serving.input");
                }),
                AllOf(HasSubstr("serving.input-mean"), HasSubstr("zero-length")));
    EXPECT_THAT(errorOf([] {
                    LengthDistribution({"normal", 5, 0, 1, 10, {}}, "serving.output");
                }),
                AllOf(HasSubstr("serving.output-distribution"), HasSubstr("lognormal")));
    EXPECT_THAT(errorOf([] {
                    LengthDistribution({"uniform", 5, 0, 10, 5, {}}, "serving.input");
                }),
                HasSubstr("serving.input-max"));
    EXPECT_THAT(errorOf([] {
                    LengthDistribution({"empirical", 5, 0, 1, 10, "/no/such/file"}, "x");
                }),
                HasSubstr("/no/such/file"));
}
