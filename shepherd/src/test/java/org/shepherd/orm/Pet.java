package org.shepherd.orm;

import java.math.BigDecimal;

/** A row of the tool tests' table pet, as MyBatis and Jdbi bind and map it (a bean). */
public class Pet {
    private Integer id;
    private String name;
    private BigDecimal weight;

    public Pet() {
    }

    Pet(String name, String weight) {
        this.name = name;
        this.weight = new BigDecimal(weight);
    }

    public Integer getId() {
        return id;
    }

    public void setId(Integer id) {
        this.id = id;
    }

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    public BigDecimal getWeight() {
        return weight;
    }

    public void setWeight(BigDecimal weight) {
        this.weight = weight;
    }

    /** {@code id name weight}, the weight with two decimals. */
    @Override
    public String toString() {
        return id + " " + name + " " + weight.setScale(2);
    }
}
