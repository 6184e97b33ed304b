#include "lsp/features/TfApiNames.h"

#include <map>
#include <set>
#include <string>

namespace tlens::lsp {

namespace {

// The top level of TF 1.15 (tensorflow/tools/api/golden/v1/tensorflow.pbtxt): tf.compat.v1.
const char* const kTf1TopLevel =
         "AUTO_REUSE AggregationMethod AttrValue COMPILER_VERSION CXX11_ABI_FLAG ConditionalAccumulator "
         "ConditionalAccumulatorBase ConfigProto CriticalSection DType DeviceSpec Dimension Event FIFOQueue "
         "FixedLenFeature FixedLenSequenceFeature FixedLengthRecordReader GIT_VERSION GPUOptions "
         "GRAPH_DEF_VERSION GRAPH_DEF_VERSION_MIN_CONSUMER GRAPH_DEF_VERSION_MIN_PRODUCER GradientTape Graph "
         "GraphDef GraphKeys GraphOptions HistogramProto IdentityReader IndexedSlices InteractiveSession "
         "LMDBReader LogMessage MONOLITHIC_BUILD MetaGraphDef Module NameAttrList NodeDef OpError Operation "
         "OptimizerOptions PaddingFIFOQueue PriorityQueue QUANTIZED_DTYPES QueueBase RaggedTensor "
         "RandomShuffleQueue ReaderBase RegisterGradient RunMetadata RunOptions Session SessionLog "
         "SparseConditionalAccumulator SparseFeature SparseTensor SparseTensorValue Summary SummaryMetadata "
         "TFRecordReader Tensor TensorArray TensorInfo TensorShape TensorSpec TextLineReader "
         "UnconnectedGradients VERSION VarLenFeature Variable VariableAggregation VariableScope "
         "VariableSynchronization WholeFileReader app audio autograph bfloat16 bitwise bool compat complex128 "
         "complex64 config constant_initializer data debugging distribute distributions double dtypes errors "
         "estimator experimental feature_column flags float16 float32 float64 gfile glorot_normal_initializer "
         "glorot_uniform_initializer graph_util half image initializers int16 int32 int64 int8 io keras "
         "layers linalg lite logging lookup losses manip math metrics name_scope nest newaxis nn "
         "ones_initializer orthogonal_initializer profiler python_io pywrap_tensorflow qint16 qint32 qint8 "
         "quantization queue quint16 quint8 ragged random random_normal_initializer "
         "random_uniform_initializer raw_ops resource resource_loader saved_model sets signal sparse spectral "
         "string strings summary sysconfig test tpu train truncated_normal_initializer uint16 uint32 uint64 "
         "uint8 uniform_unit_scaling_initializer user_ops variable_scope variance_scaling_initializer variant "
         "version xla zeros_initializer Assert NoGradient NotDifferentiable Print abs accumulate_n acos acosh "
         "add add_check_numerics_ops add_n add_to_collection add_to_collections all_variables angle arg_max "
         "arg_min argmax argmin argsort as_dtype as_string asin asinh assert_equal assert_greater "
         "assert_greater_equal assert_integer assert_less assert_less_equal assert_near assert_negative "
         "assert_non_negative assert_non_positive assert_none_equal assert_positive assert_proper_iterable "
         "assert_rank assert_rank_at_least assert_rank_in assert_same_float_dtype assert_scalar assert_type "
         "assert_variables_initialized assign assign_add assign_sub atan atan2 atanh batch_gather "
         "batch_scatter_update batch_to_space batch_to_space_nd betainc bincount bitcast boolean_mask "
         "broadcast_dynamic_shape broadcast_static_shape broadcast_to case cast ceil check_numerics cholesky "
         "cholesky_solve clip_by_average_norm clip_by_global_norm clip_by_norm clip_by_value colocate_with "
         "complex concat cond confusion_matrix conj constant container control_dependencies convert_to_tensor "
         "convert_to_tensor_or_indexed_slices convert_to_tensor_or_sparse_tensor cos cosh count_nonzero "
         "count_up_to create_partitioned_variables cross cumprod cumsum custom_gradient decode_base64 "
         "decode_compressed decode_csv decode_json_example decode_raw delete_session_tensor depth_to_space "
         "dequantize deserialize_many_sparse device diag diag_part digamma dimension_at_index dimension_value "
         "disable_eager_execution disable_resource_variables disable_v2_behavior disable_v2_tensorshape div "
         "div_no_nan divide dynamic_partition dynamic_stitch edit_distance einsum enable_eager_execution "
         "enable_resource_variables enable_v2_behavior enable_v2_tensorshape encode_base64 ensure_shape equal "
         "erf erfc executing_eagerly exp expand_dims expm1 extract_image_patches extract_volume_patches eye "
         "fake_quant_with_min_max_args fake_quant_with_min_max_args_gradient fake_quant_with_min_max_vars "
         "fake_quant_with_min_max_vars_gradient fake_quant_with_min_max_vars_per_channel "
         "fake_quant_with_min_max_vars_per_channel_gradient fft fft2d fft3d fill fingerprint "
         "fixed_size_partitioner floor floor_div floordiv floormod foldl foldr function gather gather_nd "
         "get_collection get_collection_ref get_default_graph get_default_session get_local_variable "
         "get_logger get_seed get_session_handle get_session_tensor get_static_value get_variable "
         "get_variable_scope global_norm global_variables global_variables_initializer gradients greater "
         "greater_equal group guarantee_const hessians histogram_fixed_width histogram_fixed_width_bins "
         "identity identity_n ifft ifft2d ifft3d igamma igammac imag import_graph_def init_scope "
         "initialize_all_tables initialize_all_variables initialize_local_variables initialize_variables "
         "invert_permutation is_finite is_inf is_nan is_non_decreasing is_numeric_tensor "
         "is_strictly_increasing is_tensor is_variable_initialized lbeta less less_equal lgamma lin_space "
         "linspace load_file_system_library load_library load_op_library local_variables "
         "local_variables_initializer log log1p log_sigmoid logical_and logical_not logical_or logical_xor "
         "make_ndarray make_template make_tensor_proto map_fn matching_files matmul matrix_band_part "
         "matrix_determinant matrix_diag matrix_diag_part matrix_inverse matrix_set_diag matrix_solve "
         "matrix_solve_ls matrix_square_root matrix_transpose matrix_triangular_solve maximum meshgrid "
         "min_max_variable_partitioner minimum mod model_variables moving_average_variables multinomial "
         "multiply negative no_gradient no_op no_regularizer nondifferentiable_batch_function norm not_equal "
         "numpy_function one_hot ones ones_like op_scope pad parallel_stack parse_example "
         "parse_single_example parse_single_sequence_example parse_tensor placeholder "
         "placeholder_with_default polygamma pow print py_func py_function qr quantize quantize_v2 "
         "quantized_concat random_crop random_gamma random_normal random_poisson random_shuffle "
         "random_uniform range rank read_file real realdiv reciprocal reduce_all reduce_any reduce_join "
         "reduce_logsumexp reduce_max reduce_mean reduce_min reduce_prod reduce_sum regex_replace "
         "register_tensor_conversion_function report_uninitialized_variables required_space_to_batch_paddings "
         "reset_default_graph reshape resource_variables_enabled reverse reverse_sequence reverse_v2 rint "
         "roll round rsqrt saturate_cast scalar_mul scan scatter_add scatter_div scatter_max scatter_min "
         "scatter_mul scatter_nd scatter_nd_add scatter_nd_sub scatter_nd_update scatter_sub scatter_update "
         "searchsorted segment_max segment_mean segment_min segment_prod segment_sum self_adjoint_eig "
         "self_adjoint_eigvals sequence_mask serialize_many_sparse serialize_sparse serialize_tensor "
         "set_random_seed setdiff1d shape shape_n sigmoid sign sin sinh size slice sort space_to_batch "
         "space_to_batch_nd space_to_depth sparse_add sparse_concat sparse_fill_empty_rows sparse_mask "
         "sparse_matmul sparse_maximum sparse_merge sparse_minimum sparse_placeholder sparse_reduce_max "
         "sparse_reduce_max_sparse sparse_reduce_sum sparse_reduce_sum_sparse sparse_reorder "
         "sparse_reset_shape sparse_reshape sparse_retain sparse_segment_mean sparse_segment_sqrt_n "
         "sparse_segment_sum sparse_slice sparse_softmax sparse_split sparse_tensor_dense_matmul "
         "sparse_tensor_to_dense sparse_to_dense sparse_to_indicator sparse_transpose split sqrt square "
         "squared_difference squeeze stack stop_gradient strided_slice string_join string_split string_strip "
         "string_to_hash_bucket string_to_hash_bucket_fast string_to_hash_bucket_strong string_to_number "
         "substr subtract svd switch_case tables_initializer tan tanh tensor_scatter_add "
         "tensor_scatter_nd_add tensor_scatter_nd_sub tensor_scatter_nd_update tensor_scatter_sub "
         "tensor_scatter_update tensordot tile timestamp to_bfloat16 to_complex128 to_complex64 to_double "
         "to_float to_int32 to_int64 trace trainable_variables transpose truediv truncated_normal truncatediv "
         "truncatemod tuple unique unique_with_counts unravel_index unsorted_segment_max "
         "unsorted_segment_mean unsorted_segment_min unsorted_segment_prod unsorted_segment_sqrt_n "
         "unsorted_segment_sum unstack variable_axis_size_partitioner variable_creator_scope "
         "variable_op_scope variables_initializer vectorized_map verify_tensor_all_finite where where_v2 "
         "while_loop wrap_function write_file zeros zeros_like zeta";
// What TF 2.x adds at the top level.
const char* const kTf2Additions =
    "IndexedSlicesSpec OptionalSpec RaggedTensorSpec SparseTensorSpec TensorArraySpec TypeSpec autodiff types mlir "
    "grad_pass_through recompute_grad inside_function get_current_name_scope is_symbolic_tensor repeat "
    "tensor_scatter_nd_max tensor_scatter_nd_min";

// One string of space-separated names per namespace (TF 1.15's and TF 2.x's public API; numpy's
// and os's for the modules TF programs use beside it).
const std::map<std::string, std::set<std::string, std::less<>>, std::less<>>& table() {
  static const auto* t = [] {
    static const std::string tf2TopLevel = std::string(kTf1TopLevel) + " " + kTf2Additions;
    const std::pair<const char*, const char*> kLists[] = {
        // The top level of TF 1.15 with the names TF 2.x adds; tf.compat.v1 is TF 1.15's.
        {"tensorflow", tf2TopLevel.c_str()},
        {"tensorflow.compat.v1", kTf1TopLevel},
        // TF 1.x's tf.layers (golden/v1/tensorflow.layers.pbtxt).
        {"tensorflow.layers",
         "AveragePooling1D AveragePooling2D AveragePooling3D BatchNormalization Conv1D Conv2D Conv2DTranspose "
         "Conv3D Conv3DTranspose Dense Dropout Flatten InputSpec Layer MaxPooling1D MaxPooling2D MaxPooling3D "
         "SeparableConv1D SeparableConv2D experimental average_pooling1d average_pooling2d average_pooling3d "
         "batch_normalization conv1d conv2d conv2d_transpose conv3d conv3d_transpose dense dropout flatten "
         "max_pooling1d max_pooling2d max_pooling3d separable_conv1d separable_conv2d"},
        // numpy's public names, 1.x (np.int, np.float and the other removed aliases included: real
        // programs written for numpy < 1.24 use them).
        {"numpy",
         "ndarray dtype generic number integer signedinteger unsignedinteger inexact floating complexfloating "
         "bool_ int_ intc intp int8 int16 int32 int64 uint uint8 uint16 uint32 uint64 float_ float16 float32 "
         "float64 longdouble half single double complex_ complex64 complex128 object_ str_ bytes_ void "
         "datetime64 timedelta64 int float bool object str long unicode matrix recarray record memmap nditer "
         "ndenumerate ndindex broadcast finfo iinfo errstate vectorize poly1d random linalg fft ma lib "
         "testing polynomial char emath rec ctypeslib newaxis nan NaN NAN inf Inf PINF NINF infty pi e "
         "euler_gamma PZERO NZERO abs absolute add all allclose amax amin angle any append apply_along_axis "
         "apply_over_axes arange arccos arccosh arcsin arcsinh arctan arctan2 arctanh argmax argmin "
         "argpartition argsort argwhere around array array2string array_equal array_equiv array_repr "
         "array_split array_str asanyarray asarray asarray_chkfinite ascontiguousarray asfarray "
         "asfortranarray asmatrix atleast_1d atleast_2d atleast_3d average bartlett base_repr binary_repr "
         "bincount bitwise_and bitwise_not bitwise_or bitwise_xor blackman block bmat broadcast_arrays "
         "broadcast_shapes broadcast_to busday_count can_cast cbrt ceil choose clip column_stack common_type "
         "compress concatenate conj conjugate convolve copy copysign copyto corrcoef correlate cos cosh "
         "count_nonzero cov cross cumprod cumproduct cumsum deg2rad degrees delete diag diag_indices "
         "diag_indices_from diagflat diagonal diff digitize divide divmod dot dsplit dstack ediff1d einsum "
         "einsum_path empty empty_like equal exp exp2 expand_dims expm1 extract eye fabs fill_diagonal fix "
         "flatnonzero flip fliplr flipud float_power floor floor_divide fmax fmin fmod "
         "format_float_positional format_float_scientific frexp frombuffer fromfile fromfunction fromiter "
         "frompyfunc fromregex fromstring full full_like gcd genfromtxt geomspace get_printoptions gradient "
         "greater greater_equal hamming hanning heaviside histogram histogram2d histogram_bin_edges "
         "histogramdd hsplit hstack hypot i0 identity imag in1d indices inner insert interp intersect1d "
         "invert isclose iscomplex iscomplexobj isfinite isin isinf isnan isnat isneginf isposinf isreal "
         "isrealobj isscalar issubdtype iterable ix_ kaiser kron lcm ldexp left_shift less less_equal lexsort "
         "linspace load loadtxt log log10 log1p log2 logaddexp logaddexp2 logical_and logical_not logical_or "
         "logical_xor logspace mask_indices matmul max maximum mean median meshgrid min minimum mod modf "
         "moveaxis multiply nan_to_num nanargmax nanargmin nancumprod nancumsum nanmax nanmean nanmedian "
         "nanmin nanpercentile nanprod nanquantile nanstd nansum nanvar ndim negative nextafter nonzero "
         "not_equal ones ones_like outer packbits pad partition percentile piecewise place polyfit polyval "
         "positive power prod product promote_types ptp put put_along_axis putmask quantile rad2deg radians "
         "ravel ravel_multi_index real real_if_close reciprocal remainder repeat require reshape resize "
         "result_type right_shift rint roll rollaxis roots rot90 round round_ row_stack save savetxt savez "
         "savez_compressed searchsorted select set_printoptions setdiff1d setxor1d shape sign signbit sin "
         "sinc sinh size sometrue sort sort_complex spacing split sqrt square squeeze stack std subtract sum "
         "swapaxes take take_along_axis tan tanh tensordot tile trace transpose trapz tri tril tril_indices "
         "tril_indices_from trim_zeros triu triu_indices triu_indices_from true_divide trunc union1d unique "
         "unpackbits unravel_index unwrap vander var vdot vsplit vstack where zeros zeros_like alltrue "
         "asscalar issctype obj2sctype sctype2char typename mintypecode show_config info source lookfor "
         "deprecate"},
        // Python's os module (Linux).
        {"os",
         "environ environb name sep altsep extsep pathsep defpath linesep devnull curdir pardir path abort "
         "access chdir chmod chown chroot close closerange cpu_count ctermid device_encoding dup dup2 execl "
         "execle execlp execlpe execv execve execvp execvpe fchdir fchmod fchown fdopen fork forkpty "
         "fpathconf fsdecode fsencode fspath fstat fsync ftruncate get_exec_path get_terminal_size getcwd "
         "getcwdb getegid getenv getenvb geteuid getgid getgroups getloadavg getlogin getpgid getpgrp getpid "
         "getppid getpriority getrandom getuid isatty kill killpg lchown link listdir lseek lstat major "
         "makedev makedirs minor mkdir mkfifo mknod nice open openpty pipe popen putenv read readlink remove "
         "removedirs rename renames replace rmdir scandir sched_getaffinity setegid seteuid setgid setpgid "
         "setsid setuid spawnl spawnle spawnlp spawnv spawnve spawnvp stat statvfs strerror symlink sync "
         "system terminal_size times truncate umask uname unlink unsetenv urandom utime wait wait3 wait4 "
         "waitpid walk write DirEntry PathLike stat_result error F_OK R_OK W_OK X_OK O_RDONLY O_WRONLY O_RDWR "
         "O_APPEND O_CREAT O_EXCL O_TRUNC SEEK_SET SEEK_CUR SEEK_END EX_OK"},
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
