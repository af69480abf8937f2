#!/bin/bash
# Input data made on the device machine (deterministic): hybridsort's list of
# floats, bsw's protein FASTA pair, easyWave's bathymetry grid (DSAA).
d=$(dirname "$0")
awk 'BEGIN{srand(1); for(i=0;i<2000000;i++) printf "%f ", rand(); print ""}' > $d/hybrid.txt
for f in ref:2 que:3; do
  awk -v seed=${f#*:} 'BEGIN{srand(seed); a="ARNDCQEGHILKMFPSTWYV";
    for(i=0;i<30000;i++){ n=60+int(rand()*200); s=""; for(k=0;k<n;k++) s=s substr(a,1+int(rand()*20),1);
      print ">s" i; print s } }' > $d/bsw-${f%:*}.fa
done
# 95..108 E, 11 S..2 N at 2 arc-minutes, ocean 4000 m deep with a shelf
awk 'BEGIN{nx=391; ny=391; print "DSAA"; print nx, ny; print 95, 108; print -11, 2; print -4000, -50;
  for(j=0;j<ny;j++){ line=""; for(i=0;i<nx;i++){ z=-4000+3950*(i/(nx-1))^4; line=line sprintf("%.1f ", z)} print line } }' > $d/grid.grd
