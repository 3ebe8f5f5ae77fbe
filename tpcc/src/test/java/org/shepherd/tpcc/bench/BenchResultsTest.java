package org.shepherd.tpcc.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;

class BenchResultsTest {

    private static BenchResults sample() {
        BenchResults r = new BenchResults(List.of("direct", "cbs", "serial"), List.of(2, 8));
        double[][] direct = {{100, 400}, {110, 420}, {90, 380}};
        double[][] cbs = {{95, 360}, {100, 399}, {85, 361}};
        double[][] serial = {{50, 60}, {55, 63}, {45, 57}};
        for (int repeat = 0; repeat < 3; repeat++) {
            for (int i = 0; i < 2; i++) {
                int t = i == 0 ? 2 : 8;
                r.add(new BenchResults.Run("direct", t, repeat, direct[repeat][i], 0, 0, 0, 0, 0));
                r.add(new BenchResults.Run("cbs", t, repeat, cbs[repeat][i], 0, 0, 0, 0, 0));
                r.add(new BenchResults.Run("serial", t, repeat, serial[repeat][i], 0, 0, 0, 0, 0));
            }
        }
        return r;
    }

    @Test
    void ratiosArePairedByRepeatThenTheirMedianIsTaken() {
        BenchResults r = sample();
        // per repeat at 8 clients: 360/400 = 0.9, 399/420 = 0.95, 361/380 = 0.95
        assertThat(r.ratio("cbs", "direct", 8)).hasValueSatisfying(v -> assertThat(v).isCloseTo(0.95, within(1e-9)));
        assertThat(r.medianThroughput("direct", 8)).contains(400.0);
        assertThat(r.stddevThroughput("direct", 8)).hasValueSatisfying(v -> assertThat(v).isCloseTo(20.0, within(1e-9)));
        assertThat(BenchResults.median(List.of(4.0, 1.0, 3.0, 2.0))).contains(2.5);
        assertThat(r.ratio("cbs", "ss", 8)).isEmpty();
    }

    @Test
    void jsonHoldsThroughputAndRatioToDirectPerConfigAtSaturation() {
        BenchResults r = sample();
        r.fail("serial", "boom");
        Map<String, Object> json = r.toJson(new LinkedHashMap<>(Map.of("engine", "derby")));
        @SuppressWarnings("unchecked")
        Map<String, Map<String, Object>> configs = (Map<String, Map<String, Object>>) json.get("configs");
        assertThat(configs.get("cbs").get("throughput")).isEqualTo(361.0);
        assertThat((Double) configs.get("cbs").get("ratio_to_direct")).isCloseTo(0.95, within(1e-9));
        assertThat(configs.get("direct").get("ratio_to_direct")).isEqualTo(1.0);
        assertThat(configs.get("serial").get("failure")).isEqualTo("boom");
        @SuppressWarnings("unchecked")
        Map<String, Object> ratios = (Map<String, Object>) json.get("ratios");
        assertThat(ratios).containsKeys("cbs/direct", "serial/direct", "cbs/serial").doesNotContainKey("cbs/ss");
        assertThat(json.get("saturation_terminals")).isEqualTo(8);
    }

    @Test
    void markdownTableHasARowPerConfigAndAColumnPerClientCount() {
        String md = sample().markdown();
        assertThat(md).contains("| config | 2 clients (tx/s) | 8 clients (tx/s) | ratio to direct @8 |");
        assertThat(md).contains("| cbs | 95.0 ± 7.6 | 361.0 ± 22.2 | 0.950 |");
        assertThat(md).contains("cbs/direct = 0.950");
    }

    @Test
    void cpuTableShowsMillisecondsPerTransactionAndCoresPerRoleAtSaturation() {
        BenchResults r = new BenchResults(List.of("direct", "cbs"), List.of(4));
        r.add(new BenchResults.Run("direct", 4, 0, 100, 0, 1000, 0, 0, 0,
            Map.of("client", new CpuMeter.Usage(0.5, 0.05), "databases", new CpuMeter.Usage(2.0, 0.2))));
        r.add(new BenchResults.Run("cbs", 4, 0, 80, 0, 800, 0, 0, 0, Map.of("client", new CpuMeter.Usage(0.4, 0.04),
            "shepherd", new CpuMeter.Usage(4.0, 0.4), "databases", new CpuMeter.Usage(4.8, 0.48))));
        String md = r.markdown();
        assertThat(md).contains("| config | client | shepherd | databases |");
        assertThat(md).contains("| direct | 0.50 (0.05) | — | 2.00 (0.20) |");
        assertThat(md).contains("| cbs | 0.50 (0.04) | 5.00 (0.40) | 6.00 (0.48) |");
        assertThat(sample().markdown()).doesNotContain("CPU at");
    }

    @Test
    void cpuMeterSeesTheCpuItsProcessSpends() {
        CpuMeter meter = new CpuMeter(Map.of("self", List.of(ProcessHandle.current())));
        meter.start();
        long sum = 0;
        long until = System.nanoTime() + 200_000_000L;
        while (System.nanoTime() < until) sum += Long.numberOfTrailingZeros(sum + System.nanoTime());
        meter.stop();
        assertThat(sum).isPositive();
        assertThat(meter.usage().get("self").cpuSeconds()).as("CPU seconds spent spinning").isPositive();
    }

    @Test
    void chartIsWellFormedSvgWithALinePerConfig() throws Exception {
        String svg = SvgChart.render(sample(), "TPC-C <test> & more");
        Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder()
            .parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
        assertThat(doc.getDocumentElement().getTagName()).isEqualTo("svg");
        assertThat(doc.getElementsByTagName("polyline").getLength()).isEqualTo(3);
        assertThat(svg).contains(">direct<", ">cbs<", ">serial<", "Number of clients");
        assertThat(SvgChart.niceCeiling(420)).isEqualTo(500.0);
        assertThat(SvgChart.niceCeiling(0.07)).isCloseTo(0.1, within(1e-12));
    }
}
