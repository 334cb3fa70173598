package org.dsmscope.cdat.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.dsmscope.trace.BadInputException;
import org.junit.jupiter.api.Test;

/** The combinations of a sweep, their names and values, and the mistakes it refuses. */
class SweepTest {
    private static final CdatConfig BASE = CdatConfig.builder().nodes(2).build();

    @Test
    void everyCombination_firstItemSlowest_namedInOrder() {
        List<Sweep.Point> ps = Sweep.expand(BASE, List.of("protocol=1,3,5", "data_cache=8K 4 lru, 32K 2 fifo"));
        assertEquals(6, ps.size());
        List<String> got = new ArrayList<>();
        for (Sweep.Point p : ps) {
            CdatConfig c = p.config();
            got.add(c.name + " " + c.protocol + " " + c.dataCache.size() + " " + c.dataCache.associativity() + " "
                    + p.values());
            assertEquals(2, c.nodes, "the base's other items stay");
        }
        assertEquals(List.of("s01 1 8192 4 {protocol=1, data_cache=8K 4 lru}",
                "s02 1 32768 2 {protocol=1, data_cache=32K 2 fifo}", "s03 3 8192 4 {protocol=3, data_cache=8K 4 lru}",
                "s04 3 32768 2 {protocol=3, data_cache=32K 2 fifo}", "s05 5 8192 4 {protocol=5, data_cache=8K 4 lru}",
                "s06 5 32768 2 {protocol=5, data_cache=32K 2 fifo}"), got);
    }

    @Test
    void mistakes_nameTheVaryArgument() {
        String[][] cases = {
            {"protocol", "--vary protocol: expected ITEM=VALUE,VALUE,..."},
            {"colour=red", "--vary colour=red: unknown item 'colour'"},
            {"name=a,b", "--vary name=a,b: the sweep names its configurations itself"},
            {"protocol=1,,2", "--vary protocol=1,,2: an empty value"},
            {"protocol=1,9", "--vary protocol=9: protocol: value 9 out of range (1..8)"},
            {"nodes=64", "--vary nodes=64: nodes: value 64 out of range (1..32)"},
        };
        for (String[] c : cases) {
            BadInputException e = assertThrows(BadInputException.class, () -> Sweep.expand(BASE, List.of(c[0])));
            assertEquals(true, e.getMessage().startsWith(c[1]), e.getMessage());
        }
        assertThrows(BadInputException.class, () -> Sweep.expand(BASE, List.of("protocol=1", "protocol=2")));
        BadInputException many = assertThrows(BadInputException.class, () -> Sweep.expand(BASE,
                List.of("protocol=1,2,3,4,5,6,7,8", "nodes=1,2,3,4,5,6,7,8,9")));
        assertEquals(true, many.getMessage().contains("at most 64"), many.getMessage());
    }
}
