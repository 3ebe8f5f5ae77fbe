package org.shepherd.vote;

/**
 * One replica's answer to one statement, reduced to a digest of its canonical form. Two ballots are equal when
 * their digests are; {@code summary} says in a few words what the answer was, for messages and reports.
 */
public record Ballot(String digest, String summary) {

    public Ballot {
        if (digest == null || summary == null) throw new IllegalArgumentException("digest and summary required");
    }

    public boolean agreesWith(Ballot other) {
        return other != null && digest.equals(other.digest);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Ballot b && b.digest.equals(digest);
    }

    @Override
    public int hashCode() {
        return digest.hashCode();
    }

    @Override
    public String toString() {
        return summary;
    }
}
