package org.shepherd.translator.dialect;

import java.util.Set;

/** Db2 for LUW 11.5: OFFSET/FETCH, BOOLEAN, no IF [NOT] EXISTS (emulated), LENGTH and TRUNCATE. */
public class Db2Dialect extends NoIfExistsDialect {

    public Db2Dialect() {
        super(Set.of("42710"), Set.of("42704"));
    }


    @Override
    public String name() {
        return "db2";
    }

    @Override
    public Family family() {
        return Family.DB2;
    }

    @Override
    public String truncateFunction() {
        return "TRUNCATE";
    }

    @Override
    public String truncateTableClause() {
        return " IMMEDIATE";
    }

    @Override
    public int defaultDecimalPrecision() {
        return 5;
    }

    @Override
    public boolean sumKeepsIntegerType() {
        return true;
    }

    @Override
    public String fromOfSelectWithoutTable() {
        return "SYSIBM.SYSDUMMY1";
    }

    @Override
    public SequenceDefaults sequenceDefaults() {
        return new SequenceDefaults("INTEGER", false, false);
    }

    @Override
    public DecimalStore decimalStore() {
        return DecimalStore.TRUNCATES;
    }

    @Override
    public boolean parameterTakesOperandType() {
        return true;
    }

    @Override
    public boolean cutsParameterBesideDecimal(ParameterPosition position) {
        return position == ParameterPosition.ADDITIVE || position == ParameterPosition.MULTIPLICATIVE
                || position == ParameterPosition.COALESCE;
    }
}
