#include "lsp/features/TfApiNames.h"

#include <map>
#include <set>
#include <string>

namespace tlens::lsp {

namespace {

// One string of space-separated names per namespace (TF 1.15's and TF 2.x's public API).
const std::map<std::string, std::set<std::string, std::less<>>, std::less<>>& table() {
  static const auto* t = [] {
    const std::pair<const char*, const char*> kLists[] = {
        {"tensorflow.nn",
         "all_candidate_sampler approx_max_k approx_min_k atrous_conv2d atrous_conv2d_transpose avg_pool "
         "avg_pool1d avg_pool2d avg_pool3d avg_pool_v2 batch_norm_with_global_normalization "
         "batch_normalization bias_add bidirectional_dynamic_rnn collapse_repeated compute_accidental_hits "
         "compute_average_loss conv1d conv1d_transpose conv2d conv2d_backprop_filter conv2d_backprop_input "
         "conv2d_transpose conv3d conv3d_backprop_filter conv3d_backprop_filter_v2 conv3d_transpose "
         "conv_transpose convolution crelu ctc_beam_search_decoder ctc_beam_search_decoder_v2 "
         "ctc_greedy_decoder ctc_loss ctc_loss_v2 ctc_unique_labels depth_to_space depthwise_conv2d "
         "depthwise_conv2d_backprop_filter depthwise_conv2d_backprop_input depthwise_conv2d_native "
         "depthwise_conv2d_native_backprop_filter depthwise_conv2d_native_backprop_input dilation2d dropout "
         "dynamic_rnn elu embedding_lookup embedding_lookup_sparse erosion2d experimental "
         "fixed_unigram_candidate_sampler fractional_avg_pool fractional_max_pool fused_batch_norm gelu "
         "in_top_k isotonic_regression l2_loss l2_normalize leaky_relu learned_unigram_candidate_sampler "
         "local_response_normalization log_poisson_loss log_softmax log_uniform_candidate_sampler lrn "
         "max_pool max_pool1d max_pool2d max_pool3d max_pool_v2 max_pool_with_argmax moments nce_loss "
         "normalize_moments pool quantized_avg_pool quantized_conv2d quantized_max_pool quantized_relu_x "
         "raw_rnn relu relu6 relu_layer rnn_cell safe_embedding_lookup_sparse sampled_softmax_loss "
         "scale_regularization_loss selu separable_conv2d sigmoid sigmoid_cross_entropy_with_logits silu "
         "softmax softmax_cross_entropy_with_logits softmax_cross_entropy_with_logits_v2 softplus softsign "
         "space_to_batch space_to_depth sparse_softmax_cross_entropy_with_logits static_bidirectional_rnn "
         "static_rnn static_state_saving_rnn sufficient_statistics swish tanh top_k "
         "uniform_candidate_sampler weighted_cross_entropy_with_logits weighted_moments with_space_to_batch "
         "xw_plus_b zero_fraction"},
        {"tensorflow.train",
         "AdadeltaOptimizer AdagradDAOptimizer AdagradOptimizer AdamOptimizer BytesList Checkpoint "
         "CheckpointManager CheckpointOptions CheckpointSaverHook CheckpointSaverListener ChiefSessionCreator "
         "ClusterDef ClusterSpec Coordinator Example ExponentialMovingAverage Feature FeatureList FeatureLists "
         "Features FeedFnHook FinalOpsHook FloatList FtrlOptimizer GlobalStepWaiterHook "
         "GradientDescentOptimizer Int64List JobDef LoggingTensorHook LooperThread MomentumOptimizer "
         "MonitoredSession MonitoredTrainingSession NanLossDuringTrainingError NanTensorHook Optimizer "
         "ProfilerHook ProximalAdagradOptimizer ProximalGradientDescentOptimizer QueueRunner "
         "RMSPropOptimizer Saver SaverDef Scaffold SecondOrStepTimer SequenceExample Server ServerDef "
         "SessionCreator SessionManager SessionRunArgs SessionRunContext SessionRunHook SessionRunValues "
         "SingularMonitoredSession StepCounterHook StopAtStepHook SummarySaverHook Supervisor "
         "SyncReplicasOptimizer VocabInfo WorkerSessionCreator add_queue_runner assert_global_step "
         "basic_train_loop batch batch_join checkpoint_exists checkpoints_iterator cosine_decay "
         "cosine_decay_restarts create_global_step do_quantize_training_on_graphdef experimental "
         "exponential_decay export_meta_graph generate_checkpoint_state_proto get_checkpoint_mtimes "
         "get_checkpoint_state get_global_step get_or_create_global_step global_step import_meta_graph "
         "init_from_checkpoint input_producer inverse_time_decay latest_checkpoint limit_epochs "
         "linear_cosine_decay list_variables load_checkpoint load_variable match_filenames_once maybe_batch "
         "maybe_batch_join maybe_shuffle_batch maybe_shuffle_batch_join natural_exp_decay "
         "noisy_linear_cosine_decay piecewise_constant piecewise_constant_decay polynomial_decay "
         "queue_runner range_input_producer remove_checkpoint replica_device_setter sdca_fprint "
         "sdca_optimizer sdca_shrink_l1 shuffle_batch shuffle_batch_join slice_input_producer "
         "start_queue_runners string_input_producer summary_iterator update_checkpoint_state warm_start "
         "write_graph"},
        {"tensorflow.random",
         "Algorithm Generator all_candidate_sampler categorical create_rng_state experimental "
         "fixed_unigram_candidate_sampler fold_in gamma get_global_generator get_seed "
         "learned_unigram_candidate_sampler log_uniform_candidate_sampler multinomial normal poisson "
         "set_global_generator set_random_seed set_seed shuffle split stateless_binomial "
         "stateless_categorical stateless_gamma stateless_multinomial stateless_normal "
         "stateless_parameterized_truncated_normal stateless_poisson stateless_truncated_normal "
         "stateless_uniform truncated_normal uniform uniform_candidate_sampler"},
        {"tensorflow.losses",
         "BinaryCrossentropy BinaryFocalCrossentropy CategoricalCrossentropy CategoricalHinge "
         "CosineSimilarity Hinge Huber KLD KLDivergence LogCosh Loss MAE MAPE MSE MSLE MeanAbsoluteError "
         "MeanAbsolutePercentageError MeanSquaredError MeanSquaredLogarithmicError Poisson Reduction "
         "SparseCategoricalCrossentropy SquaredHinge absolute_difference add_loss binary_crossentropy "
         "binary_focal_crossentropy categorical_crossentropy categorical_hinge compute_weighted_loss "
         "cosine_distance cosine_similarity deserialize get get_losses get_regularization_loss "
         "get_regularization_losses get_total_loss hinge hinge_loss huber huber_loss kl_divergence kld "
         "kullback_leibler_divergence log_cosh log_loss logcosh mae mape mean_absolute_error "
         "mean_absolute_percentage_error mean_pairwise_squared_error mean_squared_error "
         "mean_squared_logarithmic_error mse msle poisson serialize sigmoid_cross_entropy "
         "softmax_cross_entropy sparse_categorical_crossentropy sparse_softmax_cross_entropy squared_hinge"},
        {"tensorflow.linalg",
         "adjoint band_part banded_triangular_solve cholesky cholesky_solve cross det diag diag_part eig "
         "eigh eigh_tridiagonal eigvals eigvalsh einsum experimental expm eye global_norm inv l2_normalize "
         "logdet logm lstsq lu lu_matrix_inverse lu_reconstruct lu_solve matmul matrix_rank "
         "matrix_transpose matvec norm normalize pinv qr set_diag slogdet solve sqrtm svd tensor_diag "
         "tensor_diag_part tensordot trace transpose triangular_solve tridiagonal_matmul tridiagonal_solve"},
        {"tensorflow.math",
         "abs accumulate_n acos acosh add add_n angle approx_max_k approx_min_k argmax argmin asin asinh "
         "atan atan2 atanh bessel_i0 bessel_i0e bessel_i1 bessel_i1e betainc bincount ceil "
         "confusion_matrix conj cos cosh count_nonzero cumprod cumsum cumulative_logsumexp digamma divide "
         "divide_no_nan equal erf erfc erfcinv erfinv exp expm1 floor floordiv floormod greater "
         "greater_equal igamma igammac imag in_top_k invert_permutation is_finite is_inf is_nan "
         "is_non_decreasing is_strictly_increasing l2_normalize lbeta less less_equal lgamma log log1p "
         "log_sigmoid log_softmax logical_and logical_not logical_or logical_xor maximum minimum mod "
         "multiply multiply_no_nan ndtri negative nextafter not_equal polygamma polyval pow real "
         "reciprocal reciprocal_no_nan reduce_all reduce_any reduce_euclidean_norm reduce_logsumexp "
         "reduce_max reduce_mean reduce_min reduce_prod reduce_std reduce_sum reduce_variance rint round "
         "rsqrt scalar_mul segment_max segment_mean segment_min segment_prod segment_sum sigmoid sign sin "
         "sinh sobol_sample softmax softplus softsign special sqrt square squared_difference subtract tan "
         "tanh top_k truediv unsorted_segment_max unsorted_segment_mean unsorted_segment_min "
         "unsorted_segment_prod unsorted_segment_sqrt_n unsorted_segment_sum xdivy xlog1py xlogy "
         "zero_fraction zeta"},
        {"tensorflow.image",
         "ResizeMethod adjust_brightness adjust_contrast adjust_gamma adjust_hue adjust_jpeg_quality "
         "adjust_saturation central_crop combined_non_max_suppression convert_image_dtype crop_and_resize "
         "crop_to_bounding_box decode_and_crop_jpeg decode_bmp decode_gif decode_image decode_jpeg "
         "decode_png draw_bounding_boxes encode_jpeg encode_png experimental extract_glimpse "
         "extract_image_patches extract_jpeg_shape extract_patches flip_left_right flip_up_down "
         "generate_bounding_box_proposals grayscale_to_rgb hsv_to_rgb image_gradients is_jpeg "
         "non_max_suppression non_max_suppression_overlaps non_max_suppression_padded "
         "non_max_suppression_with_scores pad_to_bounding_box per_image_standardization psnr "
         "random_brightness random_contrast random_crop random_flip_left_right random_flip_up_down "
         "random_hue random_jpeg_quality random_saturation resize resize_area resize_bicubic "
         "resize_bilinear resize_image_with_crop_or_pad resize_image_with_pad resize_images "
         "resize_nearest_neighbor resize_with_crop_or_pad resize_with_pad rgb_to_grayscale rgb_to_hsv "
         "rgb_to_yiq rgb_to_yuv rot90 sample_distorted_bounding_box sobel_edges ssim ssim_multiscale "
         "stateless_random_brightness stateless_random_contrast stateless_random_crop "
         "stateless_random_flip_left_right stateless_random_flip_up_down stateless_random_hue "
         "stateless_random_jpeg_quality stateless_random_saturation total_variation transpose "
         "transpose_image yiq_to_rgb yuv_to_rgb"},
    };
    auto* m = new std::map<std::string, std::set<std::string, std::less<>>, std::less<>>();
    for (const auto& [module, names] : kLists) {
      auto& set = (*m)[module];
      std::string_view rest(names);
      while (!rest.empty()) {
        size_t sp = rest.find(' ');
        set.emplace(rest.substr(0, sp));
        rest = sp == std::string_view::npos ? std::string_view{} : rest.substr(sp + 1);
      }
    }
    return m;
  }();
  return *t;
}

}  // namespace

bool isUnmodelledTfNamespace(std::string_view module, std::string_view name) {
  static const std::set<std::string, std::less<>> kNames = {
      "estimator", "saved_model", "distribute", "io",   "strings",
      "signal", "sparse",    "ragged",   "lite",           "feature_column", "autograph", "experimental",
      "tpu",    "xla",       "quantization", "queue",      "sets",       "bitwise", "audio"};
  return module == "tensorflow" && kNames.count(name) > 0;
}

bool isTfApiName(std::string_view module, std::string_view name) {
  auto it = table().find(module);
  if (it == table().end()) return false;
  // tf.linalg's many operator classes (LinearOperatorDiag, ...).
  if (module == "tensorflow.linalg" && name.rfind("LinearOperator", 0) == 0) return true;
  return it->second.count(name) > 0;
}

}  // namespace tlens::lsp
