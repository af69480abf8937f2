// Stand-in for curand.h (CUDA 13): generators and their stream.
#pragma once
#pragma clang system_header
#include <cuda_runtime.h>

typedef struct curandGenerator_st *curandGenerator_t;
typedef enum { CURAND_STATUS_SUCCESS = 0 } curandStatus_t;
typedef enum { CURAND_RNG_PSEUDO_DEFAULT = 100 } curandRngType_t;

curandStatus_t curandCreateGenerator(curandGenerator_t *generator, curandRngType_t rng_type);
curandStatus_t curandCreateGeneratorHost(curandGenerator_t *generator,
                                         curandRngType_t rng_type);
curandStatus_t curandDestroyGenerator(curandGenerator_t generator);
curandStatus_t curandSetStream(curandGenerator_t generator, cudaStream_t stream);
curandStatus_t curandSetPseudoRandomGeneratorSeed(curandGenerator_t generator,
                                                  unsigned long long seed);
curandStatus_t curandGenerateUniform(curandGenerator_t generator, float *outputPtr,
                                     size_t num);
