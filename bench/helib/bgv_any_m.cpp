// HElib BGV over Phi_m with t = 2: median time of one multiplication with relinearisation
// (`multiplyBy` on a copy of a fresh ciphertext) and of one rotation along the first hypercube
// dimension, one thread, for the comparison in bench/results/cyclotomic/amd-epyc-zen3/README.md.
// Usage: bgv_any_m M BITS C RUNS. Built against an HElib installed by hand (it is in no registry):
//   g++ -O3 -std=c++17 bgv_any_m.cpp -I$HELIB/include -L$HELIB/lib -lhelib -lntl -lgmp -lpthread
#include <helib/helib.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <vector>

template <typename F>
static double median_ms(int runs, F f)
{
  std::vector<double> t;
  for (int i = 0; i < runs + 2; ++i) {
    auto a = std::chrono::steady_clock::now();
    f();
    auto b = std::chrono::steady_clock::now();
    if (i >= 2)
      t.push_back(std::chrono::duration<double, std::milli>(b - a).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

int main(int argc, char* argv[])
{
  if (argc != 5) {
    std::cerr << "usage: bgv_any_m M BITS C RUNS\n";
    return 2;
  }
  unsigned long m = std::atol(argv[1]), bits = std::atol(argv[2]), c = std::atol(argv[3]);
  int runs = std::atoi(argv[4]);
  helib::Context context =
      helib::ContextBuilder<helib::BGV>().m(m).p(2).r(1).bits(bits).c(c).build();
  helib::SecKey sk(context);
  sk.GenSecKey();
  helib::addSome1DMatrices(sk);
  const helib::EncryptedArray& ea = context.getEA();
  long slots = ea.size();
  helib::Ptxt<helib::BGV> pt(context);
  for (long i = 0; i < slots; ++i)
    pt[i] = i % 2;
  const helib::PubKey& pk = sk;
  helib::Ctxt fresh(pk);
  pk.Encrypt(fresh, pt);
  double mul = median_ms(runs, [&] {
    helib::Ctxt x(fresh);
    x.multiplyBy(fresh);
  });
  double rot = median_ms(runs, [&] {
    helib::Ctxt x(fresh);
    ea.rotate1D(x, 0, 1);
  });
  // Check one product decrypts right, so that the timing is of a working multiplication.
  helib::Ctxt x(fresh);
  x.multiplyBy(fresh);
  helib::Ptxt<helib::BGV> out(context);
  sk.Decrypt(out, x);
  bool ok = true;
  for (long i = 0; i < slots; ++i)
    ok = ok && (out[i] == pt[i] * pt[i]);
  std::cout << "m=" << m << " n=" << context.getPhiM() << " slots=" << slots
            << " log2(Q)=" << context.logOfProduct(context.getCtxtPrimes())
            << " log2(P)=" << context.logOfProduct(context.getSpecialPrimes())
            << " security=" << context.securityLevel() << " mul_ms=" << mul
            << " us_per_slot=" << 1000.0 * mul / slots << " rot_ms=" << rot
            << " correct=" << (ok ? "yes" : "NO") << std::endl;
  return ok ? 0 : 1;
}
