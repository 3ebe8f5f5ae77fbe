package org.shepherd.tpcc;

import java.math.BigDecimal;
import java.util.SplittableRandom;

/** The random generators of TPC-C clause 2.1 and 4.3.2 over one seeded stream. Not thread-safe. */
public final class TpccRandom {

    private static final String[] SYLLABLES = {
        "BAR", "OUGHT", "ABLE", "PRI", "PRES", "ESE", "ANTI", "CALLY", "ATION", "EING"};
    private static final String ALPHANUMERIC = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    private static final long GOLDEN_GAMMA = 0x9E3779B97F4A7C15L;

    private final SplittableRandom random;
    private final NuRandConstants constants;

    public TpccRandom(long seed, NuRandConstants constants) {
        this.random = new SplittableRandom(seed);
        this.constants = constants;
    }

    /** A seed for an independent stream named by {@code stream} and {@code index}, derived from {@code seed}. */
    public static long derive(long seed, int stream, long index) {
        long z = seed + GOLDEN_GAMMA * (stream * 1_000_003L + index + 1);
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    public NuRandConstants constants() {
        return constants;
    }

    /** Uniform in [min, max], both inclusive. */
    public int uniform(int min, int max) {
        return random.nextInt(min, max + 1);
    }

    /** NURand(A, x, y) of clause 2.1.6 with the constant C that belongs to A. */
    public int nuRand(int a, int x, int y) {
        int c = constants.forA(a);
        return (((uniform(0, a) | uniform(x, y)) + c) % (y - x + 1)) + x;
    }

    /** Customer id per clause 2.1.6: NURand(1023, 1, customers). */
    public int customerId(Scale scale) {
        return nuRand(NuRandConstants.A_CUSTOMER_ID, 1, scale.customersPerDistrict());
    }

    /** Item id per clause 2.1.6: NURand(8191, 1, items). */
    public int itemId(Scale scale) {
        return nuRand(NuRandConstants.A_ITEM_ID, 1, scale.items());
    }

    /** A last name for a run-time lookup: NURand(255, 0, 999), restricted to names that exist at this scale. */
    public String customerLastName(Scale scale) {
        return lastName(nuRand(NuRandConstants.A_LAST_NAME, 0, scale.maxLastNameNumber()));
    }

    /** The C_LAST of clause 4.3.2.3 for a number 0..999. */
    public static String lastName(int number) {
        return SYLLABLES[number / 100] + SYLLABLES[(number / 10) % 10] + SYLLABLES[number % 10];
    }

    /** Random alphanumeric string with a length in [minLength, maxLength]. */
    public String aString(int minLength, int maxLength) {
        return chars(uniform(minLength, maxLength), ALPHANUMERIC);
    }

    /** Random numeric string with a length in [minLength, maxLength]. */
    public String nString(int minLength, int maxLength) {
        return chars(uniform(minLength, maxLength), "0123456789");
    }

    private String chars(int length, String alphabet) {
        StringBuilder sb = new StringBuilder(length);
        for (int i = 0; i < length; i++) sb.append(alphabet.charAt(random.nextInt(alphabet.length())));
        return sb.toString();
    }

    /** I_DATA / S_DATA: 26..50 characters, 10% of them with "ORIGINAL" at a random position. */
    public String dataWithOriginal() {
        String data = aString(26, 50);
        if (uniform(1, 10) == 1) {
            int at = uniform(0, data.length() - 8);
            data = data.substring(0, at) + "ORIGINAL" + data.substring(at + 8);
        }
        return data;
    }

    public String zip() {
        return nString(4, 4) + "11111";
    }

    public String state() {
        return chars(2, "ABCDEFGHIJKLMNOPQRSTUVWXYZ");
    }

    /** A decimal with {@code scale} fraction digits between min and max unscaled values, inclusive. */
    public BigDecimal decimal(int minUnscaled, int maxUnscaled, int scale) {
        return BigDecimal.valueOf(uniform(minUnscaled, maxUnscaled), scale);
    }

    /** A uniformly shuffled array of 1..n (the O_C_ID permutation of clause 4.3.3.1). */
    public int[] permutation(int n) {
        int[] values = new int[n];
        for (int i = 0; i < n; i++) values[i] = i + 1;
        for (int i = n - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int t = values[i];
            values[i] = values[j];
            values[j] = t;
        }
        return values;
    }
}
